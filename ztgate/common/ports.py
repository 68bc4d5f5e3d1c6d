"""Whose port is it: a listen address is checked free before a part starts, and the socket listening
there is checked to belong to that part's own process.

Why both: a health check only says that *something* answers on an address. Seen: a second
`ztgate up` beside a running one reported every part ready, because its checks reached the first
suite's services while its own could not bind. A port in use must stop a start before anything is
reported ready (`bind_error`), and a health answer counts only while the listener is the child's
own (`listener_owned_by`, from Linux's /proc; elsewhere it cannot tell and says None).
"""

from __future__ import annotations

import ipaddress
import os
import socket
import struct
from pathlib import Path

from ztgate.common.server import ListenError, split_host_port

_LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's `st` column
_PROC_NET = (Path("/proc/net/tcp"), Path("/proc/net/tcp6"))
Ip = ipaddress.IPv4Address | ipaddress.IPv6Address


def bind_error(address: str) -> OSError | None:
    """Why `address` (HOST:PORT) cannot be listened on right now, None when it can.

    Binds the way the suite's servers do: SO_REUSEADDR (a previous run's connections in TIME_WAIT
    do not count as use) and never SO_REUSEPORT (which would share the port with a running
    server). Port 0 (any free port) is always available."""
    try:
        host, port = split_host_port(address)
    except ListenError as exc:
        return OSError(0, str(exc))
    if port == 0:
        return None
    try:
        family, kind, proto, _, sockaddr = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as exc:
        return OSError(0, f"cannot resolve {host!r}: {exc.strerror}")
    with socket.socket(family, kind, proto) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(sockaddr)
        except OSError as exc:
            return exc
    return None


def _ip(hex_address: str) -> Ip:
    """An address as /proc/net/tcp{,6} prints it: 32-bit words in the host's byte order."""
    raw = b"".join(struct.pack("=I", int(hex_address[i:i + 8], 16))
                   for i in range(0, len(hex_address), 8))
    ip = ipaddress.ip_address(raw)
    # gRPC listens on an IPv6 socket with an IPv4-mapped address for an IPv4 host.
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def _listeners(port: int) -> list[tuple[Ip, int]] | None:
    """(address, socket inode) of every socket listening on `port`; None without /proc/net."""
    if not _PROC_NET[0].exists():
        return None
    found = []
    for table in _PROC_NET:
        try:
            lines = table.read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            hex_ip, _, hex_port = local.partition(":")
            if state == _LISTEN and int(hex_port, 16) == port:
                found.append((_ip(hex_ip), int(inode)))
    return found


def _socket_inodes(pid: int) -> set[int]:
    inodes: set[int] = set()
    fd_dir = f"/proc/{pid}/fd"
    try:
        names = os.listdir(fd_dir)
    except OSError:  # gone, or not ours to read
        return inodes
    for name in names:
        try:
            target = os.readlink(f"{fd_dir}/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def _host_ips(host: str, port: int) -> set[Ip]:
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        return set()
    return {ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos}


def listener_owned_by(pid: int, address: str) -> bool | None:
    """True when `pid` holds a socket listening on `address` and no other process listens where a
    call to `address` could land (the same address, or a wildcard on the same port); None where
    this cannot be told (no /proc)."""
    host, port = split_host_port(address)
    listeners = _listeners(port)
    if listeners is None:
        return None
    ours = _host_ips(host, port)
    wildcard = any(ip.is_unspecified for ip in ours)
    reachable = {inode for ip, inode in listeners if wildcard or ip.is_unspecified or ip in ours}
    return bool(reachable) and reachable <= _socket_inodes(pid)
