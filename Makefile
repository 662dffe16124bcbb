# LayerBench. Two commands do everything on a fresh Debian 12 machine:
#   make run    set up, build, measure this machine, render, preview
#   make test   set up, build, pass every test
.PHONY: run test setup build configure render serve measure fuzz device-build clean

VENV      ?= $(HOME)/.cache/layerbench/venv
BUILD     ?= build
PYTHON    := $(VENV)/bin/python
JOBS      ?= $(shell nproc)
BIN       := $(BUILD)/layerbench
RUN_ARGS  ?=
# Local runs land here, git-ignored, so `make run` never touches the published datasets in data/.
RUNS      ?= runs

setup:
	@LAYERBENCH_VENV=$(VENV) bash scripts/setup.sh

$(BUILD)/CMakeCache.txt:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_PREFIX_PATH="$$($(PYTHON) -c 'import torch; print(torch.utils.cmake_prefix_path)')" \
	  -DPython3_EXECUTABLE=$(PYTHON) -DLAYERBENCH_PYTHON=$(PYTHON)

configure: setup $(BUILD)/CMakeCache.txt

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

measure: build
	@mkdir -p $(RUNS)
	$(BIN) run --out $(RUNS)/local-$$(date -u +%Y%m%dT%H%M%SZ).json $(RUN_ARGS)

run: measure

clean:
	rm -rf $(BUILD)
