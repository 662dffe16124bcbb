# LayerBench. Two commands do everything on a fresh Debian 12 machine:
#   make run    set up, build, measure this machine, render, preview
#   make test   set up, build, pass every test
.PHONY: run test setup build configure check-release print-venv print-build render serve measure fuzz device-build device-debs device-carry clean \
        site-setup site-tools site-render site-serve site-check

# TORCH_VERSION=X builds against another torch release, for the CPU, in a venv and build folder of
# its own (docs/versions.md); the default is the release the GPU machine has, in venv/ and build/.
DEFAULT_TORCH_VERSION := 2.11.0
TORCH_VERSION ?= $(DEFAULT_TORCH_VERSION)
ifeq ($(TORCH_VERSION),$(DEFAULT_TORCH_VERSION))
VENV      ?= $(HOME)/.cache/layerbench/venv
BUILD     ?= build
TORCH_CMAKE = -DCMAKE_PREFIX_PATH="$$($(PYTHON) -c 'import torch; print(torch.utils.cmake_prefix_path)')"
BUILD_TARGETS ?=
else
VENV      ?= $(HOME)/.cache/layerbench/venv-$(TORCH_VERSION)
BUILD     ?= build-$(TORCH_VERSION)
# `import torch` needs the CUDA libraries such a venv leaves out: CMake gets the package folder instead.
TORCH_CMAKE = -DLAYERBENCH_TORCH_CPU_ONLY=ON \
  -DLAYERBENCH_TORCH_DIR="$$(echo $(VENV)/lib/python3*/site-packages/torch)"
# The binary only: the tests keep to the default release.
BUILD_TARGETS ?= layerbench
endif
PYTHON    := $(VENV)/bin/python
JOBS      ?= $(shell nproc)
BIN       := $(BUILD)/layerbench
RUN_ARGS  ?=
# Local runs land here, git-ignored, so `make run` never touches the published datasets in data/.
RUNS      ?= runs

setup:
	@LAYERBENCH_VENV=$(VENV) LAYERBENCH_TORCH_VERSION=$(TORCH_VERSION) bash scripts/setup.sh

# CMake leaves a cache behind when it fails (a release it refuses, say): removed, so the next
# `make` configures again instead of building an unconfigured folder.
$(BUILD)/CMakeCache.txt:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(TORCH_CMAKE) \
	  -DPython3_EXECUTABLE=$(PYTHON) -DLAYERBENCH_PYTHON=$(PYTHON) || { rm -f $@; exit 1; }

configure: setup $(BUILD)/CMakeCache.txt

# One release end to end (docs/versions.md): set up, build, measure two layers at batch size 1 on
# the CPU, validate the dataset, and check that it names the release asked for.
CHECK_RUN := $(BUILD)/check-release.json
check-release: build
	@rm -f $(CHECK_RUN) $(CHECK_RUN).partial
	$(BIN) run --device cpu --layers Linear,Conv2d --batch-sizes 1 --out $(CHECK_RUN)
	$(BIN) validate $(CHECK_RUN)
	@python3 -c 'import json, sys; v = json.load(open(sys.argv[1]))["environment"]["torch_version"]; \
	  sys.exit(0 if v.split("+")[0] == sys.argv[2] else f"check-release: the dataset names torch {v}, not {sys.argv[2]}")' \
	  $(CHECK_RUN) $(TORCH_VERSION)
	@echo "check-release: torch $(TORCH_VERSION) builds, measures and validates ($(CHECK_RUN))"

# Where TORCH_VERSION's venv and build folder are (bench/versions/measure.sh asks).
print-venv:
	@echo $(VENV)
print-build:
	@echo $(BUILD)

build: configure
	@cmake --build $(BUILD) -j $(JOBS) $(if $(BUILD_TARGETS),--target $(BUILD_TARGETS))

# The torch-free binary renders data/ into exactly the committed site/ (site-check, below), as a
# site's CI that never installs LibTorch would render it.
test: build site-check
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

measure: build
	@mkdir -p $(RUNS)
	$(BIN) run --out $(RUNS)/local-$$(date -u +%Y%m%dT%H%M%SZ).json $(RUN_ARGS)

# The published site: data/ rendered into site/ (commit the result; a test checks it is current).
# BASE_URL=https://... puts the pages' addresses into the citations (for a copy served there; the
# committed site/ is rendered without one, so it names no address it cannot vouch for).
BASE_URL ?=
render: build
	$(BIN) render --data data --templates templates --out site $(if $(BASE_URL),--base-url $(BASE_URL))

# The preview of `make run`: data/ plus the newest local run, rendered into $(PREVIEW) (never site/),
# served with live reload until Ctrl-C. SERVE_ARGS="--port 0" picks a free port.
PREVIEW    ?= $(BUILD)/preview
SERVE_ARGS ?=
run: measure
	@latest=$$(ls -t $(RUNS)/local-*.json | head -n 1); \
	  echo "make run: previewing data/ and $$latest in $(PREVIEW)"; \
	  exec $(BIN) serve --root $(PREVIEW) --extra-dataset "$$latest" $(SERVE_ARGS)

# The site tools without LibTorch, for whoever renders or previews a data folder and for a site's CI:
# `render` and `serve` from a build with -DLAYERBENCH_WITH_TORCH=OFF, in its own folder, which needs
# only Debian packages (scripts/setup.sh --debian-only: no venv, no torch wheel). Only the binary is
# built, not the tests, so that `make test` pays little for it.
SITE_BUILD   ?= build-site
SITE_BIN     := $(SITE_BUILD)/layerbench
SITE_PREVIEW ?= $(SITE_BUILD)/preview
site-setup:
	@bash scripts/setup.sh --debian-only

$(SITE_BUILD)/CMakeCache.txt:
	@cmake -S . -B $(SITE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLAYERBENCH_WITH_TORCH=OFF >/dev/null

site-tools: site-setup $(SITE_BUILD)/CMakeCache.txt
	@cmake --build $(SITE_BUILD) -j $(JOBS) --target layerbench

# site/ from data/, as `make render` writes it.
site-render: site-tools
	$(SITE_BIN) render --data data --templates templates --out site $(if $(BASE_URL),--base-url $(BASE_URL))

# data/ rendered into $(SITE_PREVIEW) (never site/) and served with live reload until Ctrl-C.
site-serve: site-tools
	exec $(SITE_BIN) serve --root $(SITE_PREVIEW) --data data --templates templates $(SERVE_ARGS)

# data/ rendered into a scratch folder must equal the committed site/ byte for byte, no file more or less.
site-check: site-tools
	@scratch=$$(mktemp -d) && trap 'rm -rf "$$scratch"' EXIT && \
	  $(SITE_BIN) render --data data --templates templates --out "$$scratch/site" >/dev/null && \
	  { diff -rq site "$$scratch/site" || { echo "site-check: site/ is not data/ as rendered now; run \`make site-render\` and commit site/" >&2; exit 1; }; } && \
	  echo "site-check: site/ is data/ rendered without LibTorch, byte for byte"

# libFuzzer on every file the program reads: datasets, the catalog, the parity validation files, the
# reference's inconsistencies and the templates. Needs clang and its runtime (Debian: clang, libclang-rt-dev), which
# only this target installs, so `make test` never pulls clang in. FUZZ_SECONDS=0 runs until stopped.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 600
# Each target runs FUZZ_SECONDS in turn, with a corpus of its own. Its seeds are tests/fuzz-seeds/<target>/
# when that folder exists, else the JSON seeds of tests/fuzz-seeds/; its dictionary is fuzz/<target>.dict
# when there is one, else fuzz/dataset.dict.
FUZZ_TARGETS ?= fuzz_dataset_parse fuzz_catalog_parse fuzz_parity_parse fuzz_inconsistencies_parse fuzz_template_render
fuzz:
	@dpkg-query -W -f='$${Status}\n' clang libclang-rt-dev 2>/dev/null | grep -c "install ok installed" | grep -q 2 \
	  || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-dev; }
	@cmake -S . -B $(FUZZ_BUILD) -DCMAKE_CXX_COMPILER=clang++ -DLAYERBENCH_WITH_TORCH=OFF -DLAYERBENCH_FUZZ=ON >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZ_TARGETS)
	@for target in $(FUZZ_TARGETS); do \
	  seeds=tests/fuzz-seeds/$$target; [ -d $$seeds ] || seeds=tests/fuzz-seeds; \
	  dict=fuzz/$$target.dict; [ -f $$dict ] || dict=fuzz/dataset.dict; \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$target $(FUZZ_BUILD)/artifacts/$$target && \
	  $(FUZZ_BUILD)/fuzz/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	    -dict=$$dict \
	    -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$target/ $(FUZZ_BUILD)/corpus/$$target $$seeds || exit 1; \
	done

# The GPU machine (docs/device.md): `make device-carry` here (the packages, the commit, and with
# DEVICE_PREBUILT=yes binaries built here), then bench/gpu/run-all.sh there, carrying .deb and gpu-carry.
device-debs:
	@bash scripts/fetch-device-debs.sh

DEVICE_PREBUILT ?= no
device-carry: device-debs
	@mkdir -p gpu-carry
	@{ git rev-parse HEAD | tr -d '\n'; git diff --quiet HEAD || printf -- '-dirty'; echo; } > gpu-carry/source-commit.txt
	@echo "device-carry: gpu-carry/source-commit.txt names $$(cat gpu-carry/source-commit.txt)"
	@if [ "$(DEVICE_PREBUILT)" = yes ]; then \
	  LAYERBENCH_TORCH_PYTHON=$(PYTHON) bash scripts/device-build.sh --target layerbench --target test_gpu_bench \
	    --prebuilt gpu-carry/prebuilt; fi
	@tree=$$(git ls-files -z --cached --others --exclude-standard | du -cb --files0-from=- 2>/dev/null | tail -n 1 | cut -f1); \
	  carry=$$(du -sb gpu-carry | cut -f1); \
	  echo "device-carry: gpu-carry is $$((carry / 1048576)) MiB; with the working tree ($$((tree / 1048576)) MiB) a call carrying it sends $$(((carry + tree) / 1048576)) MiB of the device tool's 64"; \
	  [ $$((carry + tree)) -le 67108864 ] || { echo "device-carry: over the 64 MiB the device tool sends with a call"; exit 1; }

device-build:
	@bash scripts/device-build.sh

clean:
	rm -rf $(BUILD) $(SITE_BUILD)
