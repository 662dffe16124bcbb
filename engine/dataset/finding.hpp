// SPDX-License-Identifier: MIT
#pragma once

// data/findings/<id>.json: why one cell's time differs between releases (format "layerbench-finding"),
// written by hand from a study (the first: Dropout's bernoulli_ kernel, issue 35) and read strictly here.
// The site shows a finding beside the version history of the cell it explains; the times it shows are
// read from the datasets the finding names, the finding's own copies are for readers of the file.
//
// format_version: a major change breaks readers, a minor one adds optional fields, a patch fixes text.

#include "dataset/catalog.hpp"
#include "dataset/dataset.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace layerbench::dataset {

inline constexpr SchemaVersion k_finding_version{1, 0, 0};
inline constexpr SchemaVersion k_oldest_finding_version{1, 0, 0};

// Named text in name order, as the JSON reader keeps an object's keys:
// {"default", "templates::cpu::bernoulli_kernel ..."}, {"mkl", "..."}.
using NamedTexts = std::vector<std::pair<std::string, std::string>>;

struct Quartiles
{
  double median = 0;
  double p25 = 0;
  double p75 = 0;
};

// The operator timed alone, outside LayerBench, at one batch size: one entry per pass over the releases.
struct OperatorAlone
{
  int batch_size = 0;
  std::vector<Quartiles> cpu_ms_1_thread;
  std::vector<Quartiles> timer_wall_ms_1_thread;
};

struct FindingChange
{
  std::string from; // torch releases
  std::string to;
  std::string change;
  std::string reference;   // the pull request; empty where none was found
  std::string reason;      // the issue behind it; may be empty
  std::string reason_text;
  std::string note;
  std::vector<std::string> history; // earlier pull requests of the same code
};

struct FindingRelease
{
  std::string torch_version;
  std::string path; // a key of Finding::paths
  std::string why;
  std::string dataset; // "<id>-v<N>": where the cell's times of this release are published
  std::map<int, double> cell_median_ms; // batch size -> ms, copied from the dataset
  int share_batch_size = 0;
  double operator_share = 0; // of the cell's self-CPU time spent in the operator, at share_batch_size
  std::string evidence_binary;
  std::vector<std::string> evidence_behaviour;
  NamedTexts sources; // file -> URL of the release's source
  std::optional<OperatorAlone> operator_alone;
  std::string operator_alone_note; // why it was not timed
};

struct Finding
{
  std::string id;
  std::string title;
  std::string created;
  int issue = 0;
  std::string device_type;
  std::string device_name;
  std::string device_vendor_id;
  int threads = 0;
  std::string layer; // the cell it explains
  std::string config;
  std::string mode;
  std::string op; // "aten::bernoulli_ (float p)"
  std::string cause; // one sentence
  NamedTexts paths;  // kernel path name -> what it does
  std::vector<FindingChange> changes;
  std::vector<FindingRelease> releases;
  std::string measurement_script;
  std::string measurement_outputs;
  std::string measurement_operator_alone;
  std::string measurement_conditions;
  std::string versions_page;
};

// Throws Error naming `origin` and the JSON pointer of the first problem: "too old"/"too new" for a
// format version this build does not read, a release whose path is not one of `paths`, any field the
// format does not define.
Finding parse_finding(const std::string& text, const std::string& origin);

// A finding against the folder it lies in: its id is its file's name, and (with a catalog) each release
// dataset it names is listed. Each difference is a line "FILE: /pointer: message".
std::vector<std::string> check_finding(const Finding& finding, const std::filesystem::path& file, const Catalog* catalog);

} // namespace layerbench::dataset
