"""`ztgate bench gateway --api openai`: what the OpenAI-compatible HTTP door adds, side by side
with the gRPC door in the same run.

Five series over the same prompt, one call at a time, against the same running parts: the gRPC
door's three (`gateway_bench`: direct, gateway, redaction, interleaved call by call), then the HTTP
door's two (interleaved call by call):

- openai-direct: `POST /v1/chat/completions` straight to an echo OpenAI upstream (`serve_echo`,
  aiohttp, no model: it answers at once with "Sure. You wrote: " and the message it received);
- openai-gateway: the same call through Envoy, routed by its model to that upstream, its JSON
  body scrubbed and its answer scrubbed and restored by the redaction service's ext_proc.

Added latency per door is gateway minus direct; the same target as the gRPC door's (added p99 <=
redaction p99 + 2 ms). Clients are plain HTTP/1.1 keep-alive connections (aiohttp), as the
`openai` SDK's are.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import time

from ztgate_bench.gateway_bench import (OVERHEAD_BUDGET_MS, PROMPT, GatewayBench, Series, _ms,
                                          measure)

MODEL = "echo"
OPENAI_SERIES = ("openai-direct", "openai-gateway")


async def serve_echo(listen: str) -> None:
    """An OpenAI-compatible echo upstream until SIGTERM."""
    from aiohttp import web

    async def chat(request: web.Request) -> web.Response:
        payload = await request.json()
        text = " ".join(str(m.get("content")) for m in payload.get("messages", []))
        return web.json_response({
            "id": "echo", "object": "chat.completion", "created": 0, "model": payload.get("model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": f"Sure. You wrote: {text}"}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})

    async def models(_: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": MODEL, "object": "model"}]})

    app = web.Application(client_max_size=64 * 1024 * 1024)
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_get("/v1/models", models)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    host, _, port = listen.rpartition(":")
    await web.TCPSite(runner, host, int(port)).start()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await runner.cleanup()


async def measure_openai(gateway: str, upstream: str, *, calls: int, warmup: int, prompt: str = PROMPT,
                         token: str = "", timeout_s: float = 30.0) -> tuple[dict[str, Series], dict[str, int]]:
    """Times the two HTTP series against running parts."""
    import aiohttp

    body = json.dumps({"model": MODEL, "max_tokens": 64,
                       "messages": [{"role": "user", "content": prompt}]}).encode()
    urls = {"openai-direct": f"http://{upstream}/v1/chat/completions",
            "openai-gateway": f"http://{gateway}/v1/chat/completions"}
    headers = {"content-type": "application/json", **({"authorization": f"Bearer {token}"} if token else {})}
    durations: dict[str, list[float]] = {name: [] for name in OPENAI_SERIES}
    errors = dict.fromkeys(OPENAI_SERIES, 0)
    timeout = aiohttp.ClientTimeout(total=timeout_s)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for round_ in range(warmup + calls):
            order = OPENAI_SERIES if round_ % 2 == 0 else OPENAI_SERIES[::-1]
            for name in order:
                started = time.perf_counter()
                try:
                    async with session.post(urls[name], data=body, headers=headers) as response:
                        await response.read()
                        ok = response.status == 200
                except aiohttp.ClientError:
                    ok = False
                if round_ < warmup:
                    continue
                if ok:
                    durations[name].append((time.perf_counter() - started) * 1000)
                else:
                    errors[name] += 1
    return {name: Series(name, durations[name]) for name in OPENAI_SERIES}, errors


def render_side_by_side(grpc: GatewayBench, http: dict[str, Series], http_errors: dict[str, int],
                        command: str) -> str:
    """The Markdown table of both doors in one run."""
    added_http_p50 = http["openai-gateway"].p50_ms - http["openai-direct"].p50_ms
    added_http_p99 = http["openai-gateway"].p99_ms - http["openai-direct"].p99_ms
    budget = grpc.budget_p99_ms
    met = not any(http_errors.values()) and added_http_p99 <= budget
    rows = [*(f"| grpc {s.name} | {_ms(s.p50_ms)} | {_ms(s.p99_ms)} | {grpc.errors.get(s.name, 0)} |"
              for s in (grpc.direct, grpc.gateway, grpc.redaction)),
            *(f"| {s.name} | {_ms(s.p50_ms)} | {_ms(s.p99_ms)} | {http_errors[s.name]} |"
              for s in http.values()),
            f"| added by the gRPC door | {_ms(grpc.added_p50_ms)} | {_ms(grpc.added_p99_ms)} | |",
            f"| added by the HTTP door | {_ms(added_http_p50)} | {_ms(added_http_p99)} | |"]
    return "\n".join([
        f"`{command}`, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: {grpc.calls} calls per "
        "series, one at a time; each door's series interleaved call by call, the gRPC door's "
        "then the HTTP door's in the same run, against the same parts; the same prompt.", "",
        "| series | p50 (ms) | p99 (ms) | errors |", "|---|---:|---:|---:|", *rows, "",
        f"Target (each door): added p99 <= redaction p99 + {OVERHEAD_BUDGET_MS:g} ms = {_ms(budget)} ms: "
        f"gRPC {'met' if grpc.target_met else 'NOT met'}, HTTP {'met' if met else 'NOT met'}."]) + "\n"


def run(config, *, calls: int, warmup: int, auth: bool, logs) -> tuple[GatewayBench, dict, dict]:
    """Starts the parts (with the echo OpenAI upstream as `gateway.openai_upstreams`), measures
    both doors, stops them."""
    from ztgate_bench.gateway_bench import running_suite
    from ztgate.common.process import free_address, spawn, stop_all, wait_until
    from ztgate.gateway.config import OpenAIUpstreamSettings

    echo = free_address()
    process = spawn([sys.executable, "-m", "ztgate_bench.openai_bench", "--echo-upstream", echo],
                    logs / "openai-echo.log")
    try:
        import urllib.request

        def up() -> bool:
            try:
                with urllib.request.urlopen(f"http://{echo}/v1/models", timeout=1):  # noqa: S310
                    return True
            except OSError:
                return False
        wait_until(up, "the echo OpenAI upstream", [process], logs, 60.0)
        gateway = config.gateway.model_copy(update={"openai_upstreams": [OpenAIUpstreamSettings(
            name="echo", base_url=f"http://{echo}/v1", models=[MODEL])]})
        config = config.model_copy(update={"gateway": gateway})
        with running_suite(config, logs, auth=auth) as parts:
            token = parts.tokens.get("bench", "")
            grpc = asyncio.run(measure(parts.gateway, parts.upstream, parts.redaction, calls=calls,
                                       warmup=warmup, token=token, tls=parts.tls))
            http, errors = asyncio.run(measure_openai(parts.gateway, echo, calls=calls, warmup=warmup,
                                                      token=token))
        return grpc, http, errors
    finally:
        stop_all([process])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="the OpenAI door benchmark's echo upstream")
    parser.add_argument("--echo-upstream", required=True, metavar="HOST:PORT")
    asyncio.run(serve_echo(parser.parse_args().echo_upstream))
