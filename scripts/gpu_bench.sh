#!/usr/bin/env bash
# Reproduces the inference table on an NVIDIA GPU: `ztgate bench inference` with the GPU settings
# (inference.primary.accelerator, docs/operations.md "On GPUs"), the 16-bit rows and the FP8 row.
# Run it where the GPU build is installed (`pip install -e '.[gpu]'`, or in the image's gpu
# target: `docker compose --profile gpu run --rm inference-gpu scripts/gpu_bench.sh`).
#
#   OUT=bench-gpu TENSOR_PARALLEL_SIZE=1 GPU_MEMORY_UTILIZATION=0.9 scripts/gpu_bench.sh
#
# Writes $OUT/{bf16,fp8}.{json,md}; the Markdown tables are the ones docs/benchmarks.md shows.
set -euo pipefail

OUT=${OUT:-bench-gpu}
CONCURRENCY=${CONCURRENCY:-"1 4 16"}
MAX_TOKENS=${MAX_TOKENS:-128}
REPEAT=${REPEAT:-3}
mkdir -p "$OUT"

# The settings ztgate maps one to one onto vLLM's engine arguments; checked against the installed
# build before any engine starts (a CPU build stops here, naming the setting).
export ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__DEVICE=cuda
export ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__GPU_MEMORY_UTILIZATION=${GPU_MEMORY_UTILIZATION:-0.9}
export ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__TENSOR_PARALLEL_SIZE=${TENSOR_PARALLEL_SIZE:-1}
# CUDA graphs and compilation: the start takes minutes, the decode steps are what is measured.
export ZTGATE_INFERENCE__PRIMARY__ENFORCE_EAGER=false
# Verifying a few more tokens costs about one step on a GPU: every draft is verified.
export ZTGATE_INFERENCE__PRIMARY__SPECULATIVE__DRAFT_TOKEN_COST=${DRAFT_TOKEN_COST:-0}
export VLLM_LOGGING_STREAM=ext://sys.stderr

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv
ztgate --version
ztgate models prepare

# shellcheck disable=SC2086  # CONCURRENCY is a list of numbers
# A missed target (exit 1) is a figure to read, not a reason to skip the next table; a bad flag (2) stops.
bench() {
  local name=$1; shift
  local code=0
  ztgate bench inference --engine vllm --concurrency $CONCURRENCY --max-tokens "$MAX_TOKENS" \
    --repeat "$REPEAT" --out "$OUT/$name.json" --markdown "$OUT/$name.md" "$@" || code=$?
  if [ "$code" -gt 1 ]; then exit "$code"; fi
}

# 16-bit rows: strict (float32, greedy output identical with and without speculation) and fast
# (bfloat16), each plain and with the primary's speculative method.
bench bf16 --parity strict fast

# The FP8 row: weights quantized to FP8 at load and an FP8 KV cache (GPUs with FP8 support).
ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__QUANTIZATION=fp8 \
ZTGATE_INFERENCE__PRIMARY__ACCELERATOR__KV_CACHE_DTYPE=fp8 \
  bench fp8 --parity fast

echo "tables: $OUT/bf16.md $OUT/fp8.md"
