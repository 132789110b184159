# The two commands a newcomer needs: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := help
NPM_STAMP := node_modules/.package-lock.json

.PHONY: help install build run test lint typecheck gen gen-check unit integration clean

help:
	@echo "make run   - install, build and start the service with embedded defaults (prints a demo API key)"
	@echo "make test  - everything CI checks: lint, typecheck, spec drift, unit and integration tests"
	@echo "make lint | typecheck | gen | gen-check | unit | integration | build | clean"

install: $(NPM_STAMP)

# `npm install`, not `npm ci`: npm 11 leaves other platforms' optional native bindings
# (unrs-resolver's) out of the lock file and then `npm ci` refuses it as out of sync.
$(NPM_STAMP): package.json package-lock.json
	npm install --no-audit --no-fund --loglevel=error

build: install
	npm run build --silent

run: build
	DEMO_ACCOUNT=true node dist/src/main.js

test: install lint typecheck gen-check unit integration

lint: install
	npx eslint .
	npx redocly lint openapi/openapi.yaml openapi/admin.yaml

typecheck: install
	npx tsc -p tsconfig.json --noEmit

gen: install
	npm run gen --silent

gen-check: install
	npm run gen:check --silent

unit: install
	npx jest --selectProjects unit

integration: build
	scripts/with-test-services.sh npx jest --selectProjects integration --runInBand

clean:
	rm -rf dist .data .services test-output
