// SPDX-License-Identifier: MIT
// The methodology page, the datasets index and each dataset's own page.

#include "site/memory_figure.hpp"
#include "site/setting_words.hpp"
#include "site/view_common.hpp"
#include "site/view_pages.hpp"
#include "dataset/catalog.hpp"
#include "dataset/citation.hpp"
#include "dataset/rounds.hpp"
#include "util/format.hpp"
#include "util/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <map>
#include <set>
#include <string_view>
#include <tuple>
#include <vector>

namespace layerbench::site {

namespace {

using dataset::Dataset;

std::string yes_no(bool value) { return value ? "yes" : "no"; }
std::string seconds_text(double seconds) { return trimmed_significant(seconds, 3) + " s"; }

Data environment_rows(const dataset::Environment& env)
{
  // The CUDA rows (driver, cuDNN, TF32 and benchmark switches) say nothing of a run on a CPU, whose
  // kernels never read them: they are shown for a CUDA device only.
  const bool cuda = env.device.type == "cuda";
  Data rows = list();
  rows.push_back(labelled("Device", env.device.type + " · " + env.device.name));
  if (cuda) {
    rows.push_back(labelled("Compute capability", env.device.compute_capability));
    rows.push_back(labelled("Device memory", env.device.memory_bytes ? util::format_bytes(static_cast<double>(*env.device.memory_bytes)) : ""));
    rows.push_back(labelled("CUDA driver API", env.device.driver));
    if (env.device.kernel_driver) {
      rows.push_back(labelled("NVIDIA driver", *env.device.kernel_driver));
    }
    rows.push_back(labelled("CUDA runtime", env.device.cuda_runtime));
    rows.push_back(labelled("cuDNN", env.device.cudnn));
  }
  rows.push_back(labelled("PyTorch (LibTorch)", env.torch_version + (env.torch_git_hash.empty() ? "" : " (" + env.torch_git_hash + ")")));
  rows.push_back(labelled("Compiler", env.compiler));
  rows.push_back(labelled("CPU", env.cpu_model));
  // Recorded from 1.10.0: one model name covers CPUs whose vector units, and so whose peaks, differ.
  if (env.cpu) {
    rows.push_back(labelled("CPU type", dataset::to_string(*env.cpu)));
  }
  rows.push_back(labelled("Logical cores", env.logical_cores > 0 ? util::format_thousands(env.logical_cores) : ""));
  rows.push_back(labelled("Intra-op threads", env.threads > 0 ? util::format_thousands(env.threads) : ""));
  rows.push_back(labelled("BLAS", env.blas));
  rows.push_back(labelled("Operating system", env.os));
  if (cuda) {
    rows.push_back(labelled("TF32 for matmul", yes_no(env.matmul_allow_tf32)));
    rows.push_back(labelled("TF32 for cuDNN", yes_no(env.cudnn_allow_tf32)));
    rows.push_back(labelled("cuDNN benchmark mode", yes_no(env.cudnn_benchmark)));
  }
  if (env.glibc_tunables) {
    rows.push_back(labelled("GLIBC_TUNABLES at start", env.glibc_tunables->empty() ? "not set" : *env.glibc_tunables));
  }
  if (env.load_average_start && env.load_average_end) {
    rows.push_back(labelled("Load average (1 min) at start and end", util::format_fixed(*env.load_average_start, 2)
                                                                          + " and " + util::format_fixed(*env.load_average_end, 2)));
  }
  if (env.other_cores_busy) {
    rows.push_back(labelled("Cores other processes kept busy", util::format_fixed(*env.other_cores_busy, 2)
                                                                 + " on average while it measured (the busy-machine check fires at "
                                                                 + util::format_fixed(dataset::k_busy_cores_threshold, 2) + ")"));
  }
  return rows;
}

// The dataset stores a key; people read the formula.
std::string noise_metric_text(const std::string& key)
{
  if (key == "iqr_over_median") {
    return "interquartile range over median, (p75 − p25) / median of the samples";
  }
  return key;
}

// The steady-state policy's recorded text ends with what the policy is for. That is said only while
// every cell's recorded page faults bear it out; otherwise the cells say how many took faults anyway.
constexpr std::string_view k_no_faults_claim = ", so the timed loop takes no page faults";

std::string memory_policy_text(const Dataset& data)
{
  const dataset::Methodology& m = *data.methodology;
  std::string text = m.cpu_memory_policy_text.empty() ? m.cpu_memory_policy : m.cpu_memory_policy_text;
  const size_t claim = text.find(k_no_faults_claim);
  if (claim == std::string::npos) {
    return text;
  }
  size_t counted = 0;
  size_t faulting = 0;
  const dataset::Cell* worst = nullptr;
  for (const auto& cell : data.results) {
    if (!cell.page_faults_per_iteration) {
      continue;
    }
    ++counted;
    faulting += *cell.page_faults_per_iteration >= k_page_faults_shown ? 1 : 0;
    if (!worst || *cell.page_faults_per_iteration > *worst->page_faults_per_iteration) {
      worst = &cell;
    }
  }
  if (counted > 0 && faulting == 0) {
    return text;
  }
  text.erase(claim, k_no_faults_claim.size());
  if (faulting == 0) {
    return text; // no cell recorded its faults: nothing bears the claim out
  }
  return text + "; even so, " + util::format_thousands(static_cast<int64_t>(faulting)) + " of "
         + util::format_thousands(static_cast<int64_t>(counted)) + " cells took page faults in the timed loop, up to "
         + util::format_thousands(static_cast<int64_t>(std::llround(*worst->page_faults_per_iteration))) + " per iteration ("
         + worst->layer + " at batch size " + std::to_string(worst->batch_size) + ")";
}

// A run records the same precision and dispatch text on every device, with clauses about CUDA
// ("; CUDA (cuBLAS, cuDNN): matmul ieee, ..." and ": on CUDA a profiler session ..."): on another
// device those clauses describe nothing that ran, and each is cut up to the end of its sentence.
std::string for_device(const Dataset& data, std::string text)
{
  if (on_cuda(data)) {
    return text;
  }
  for (const char* opening : {"; CUDA (", ": on CUDA "}) {
    for (size_t at = text.find(opening); at != std::string::npos; at = text.find(opening, at)) {
      const size_t end = text.find('.', at);
      text.erase(at, end == std::string::npos ? std::string::npos : end - at);
    }
  }
  return text;
}

Data methodology_rows(const Dataset& data)
{
  const dataset::Methodology& m = *data.methodology;
  Data rows = list();
  rows.push_back(labelled("Timer", m.timer));
  rows.push_back(labelled("Data type", m.dtype));
  rows.push_back(labelled("Mode", m.inference_mode ? "inference mode (no autograd)" : "autograd enabled"));
  rows.push_back(labelled("Warm-up", "at least " + seconds_text(m.warmup_seconds) + " and " + util::format_count(m.warmup_min_iterations, "iteration")));
  rows.push_back(labelled("Sample length", "iterations per sample grow until one sample takes " + seconds_text(m.block_target_seconds)));
  rows.push_back(labelled("Noise metric", noise_metric_text(m.noise_metric)));
  rows.push_back(labelled("Noise target", trimmed_significant(m.noise_target * 100.0, 3) + "%"));
  rows.push_back(labelled("Samples per cell", util::format_thousands(m.min_samples) + " to " + util::format_thousands(m.max_samples)));
  rows.push_back(labelled("Time budget per cell", seconds_text(m.cell_budget_seconds)));
  rows.push_back(labelled("FLOP convention", m.flop_convention));
  rows.push_back(labelled("Memory", m.memory_method));
  // The stored classes are relative to the run's fastest layer; the tables use fixed thresholds instead.
  rows.push_back(labelled("Speed classes stored in the file",
                          m.speed_class_rule.empty() ? std::string()
                                                     : m.speed_class_rule + " The site's tables do not show these: they class each "
                                                                            "layer by fixed time thresholds, stated under each table."));
  // 1.2.0 fields: older datasets do not have them and render as before.
  if (!m.precision.empty()) {
    rows.push_back(labelled("Precision per backend", for_device(data, m.precision)));
  }
  if (!m.cpu_memory_policy.empty()) {
    // The text begins with the policy's name.
    rows.push_back(labelled("CPU memory policy", memory_policy_text(data)));
  }
  if (!m.dispatch.empty()) {
    rows.push_back(labelled("Dispatch (which operators run)", for_device(data, m.dispatch)));
  }
  if (!m.canary.empty()) {
    rows.push_back(labelled("Machine-speed canary", m.canary + " (each cell's canary times are in the dataset's download)"));
  }
  return rows;
}

// How many cells met the noise target, and the worst noise reached: what the run achieved.
Data noise_reached(const Dataset& data)
{
  int met = 0;
  int judged = 0;
  double worst = 0;
  for (const auto& cell : data.results) {
    if (!cell.stats || !cell.stats->noise) {
      continue;
    }
    ++judged;
    met += cell.stats->noise_target_met.value_or(false) ? 1 : 0;
    worst = std::max(worst, *cell.stats->noise);
  }
  if (judged == 0) {
    return Data(false);
  }
  Data reached = object();
  reached.set("met", util::format_thousands(met));
  reached.set("judged", util::format_thousands(judged));
  reached.set("worst", trimmed_significant(worst * 100.0, 3) + "%");
  return reached;
}

// How many processes measured the run: a single one's medians are good to tens of percent on a shared
// machine (docs/validity.md), so the page says so.
std::string rounds_text(const Dataset& data)
{
  if (!data.rounds) {
    return "one round: every cell measured once, in one process, so its medians carry that process's luck; "
           "publishing wants " + std::to_string(dataset::k_publish_rounds) + " rounds";
  }
  int finished = 0;
  for (const auto& run : data.rounds->runs) {
    finished += run.status == "ok" ? 1 : 0;
  }
  const int failed = data.rounds->count - finished;
  return std::to_string(data.rounds->count) + " rounds (seed " + std::to_string(data.rounds->seed) + ")"
         + (failed == 0 ? "" : ", " + std::to_string(failed) + " of which failed") + ": " + data.rounds->method;
}

// The repository's script that made a transcribed file ("data/reference/transcribe_seed.py"), or "" when
// its command names none.
std::string transcription_script(const std::string& command_line)
{
  const auto words = util::shell_words(command_line);
  if (!words) {
    return "";
  }
  for (const auto& word : *words) {
    const bool script = word.size() > 3 && (word.compare(word.size() - 3, 3, ".py") == 0 || word.compare(word.size() - 3, 3, ".sh") == 0);
    const bool inside = !word.empty() && word.front() != '/' && word.rfind("../", 0) != 0 && word.find("/../") == std::string::npos;
    if (script && inside) {
      return word;
    }
  }
  return "";
}

// A transcription's figures are the source page's, as printed: the script that copied them is what a
// reader can look at. Its command's other words name the copy of the page and scratch files of the
// machine that ran it (a seed file, /tmp/...), which nobody else has, and the working tree it ran from
// may have held uncommitted edits: neither is shown (the downloaded file keeps both).
std::string transcribed_with(const Dataset& data)
{
  const std::string script = transcription_script(data.provenance.command_line);
  const std::string tool = data.provenance.tool + " " + data.provenance.tool_version;
  return (script.empty() ? tool : script + " (" + tool + ")")
         + ", from a copy of the source page; the figures are the page's as printed (the notes below), and the "
           "SHA-256 above pins the file";
}

Data provenance_rows(const Dataset& data)
{
  Data rows = list();
  if (data.kind == dataset::Kind::published_reference) {
    rows.push_back(labelled("Transcribed with", transcribed_with(data)));
  } else {
    rows.push_back(labelled("Tool", data.provenance.tool + " " + data.provenance.tool_version));
    rows.push_back(labelled("Tool commit", public_commit(data.provenance.git_commit)));
    // A command, in code: its --axes precision=fp32 is what to type, not the page's prose.
    auto command = labelled("Command line", public_command(data.provenance.command_line));
    command.set("code", Data(true));
    rows.push_back(std::move(command));
  }
  rows.push_back(labelled("Replaces", data.replaces.empty() ? "nothing (first version)" : data.replaces));
  if (data.kind == dataset::Kind::measured) {
    rows.push_back(labelled("Rounds", rounds_text(data)));
  }
  if (!data.provenance.forced.empty()) {
    rows.push_back(labelled("Published despite publish's checks", data.provenance.forced));
  }
  if (data.provenance.source) {
    const auto& source = *data.provenance.source;
    rows.push_back(labelled("Transcribed from", source.title + " (" + dataset::source_address(source) + "), " + source.date));
    rows.push_back(labelled("Software, as the page states", source.software));
    rows.push_back(labelled("Source licence", source.license));
    rows.push_back(labelled("Source attribution", source.attribution));
  }
  return rows;
}

Data rows_of(Data rows)
{
  Data holder = object();
  holder.set("rows", rows);
  return holder;
}

// The address of a dataset's own page, or empty without a base address.
std::string dataset_url(const SiteDataset& entry, const std::string& base_url)
{
  if (base_url.empty()) {
    return "";
  }
  return base_url + (base_url.back() == '/' ? "" : "/") + dataset_path(entry);
}

// Everything the site says of one dataset; its links start at `root`, the way up from the page it is on.
Data dataset_block(const SiteDataset& entry, const std::string& base_url, const std::string& root)
{
  const std::string url = dataset_url(entry, base_url);
  Data view = dataset_summary(entry, root);
  const Dataset& data = entry.data;
  view.set("environment", data.environment ? rows_of(environment_rows(*data.environment)) : Data(false));
  view.set("methodology", data.methodology ? rows_of(methodology_rows(data)) : Data(false));
  view.set("provenance", rows_of(provenance_rows(data)));
  view.set("noise", noise_reached(data));
  Data creators = list();
  for (const auto& creator : data.creators) {
    Data person = object();
    person.set("name", creator.name);
    person.set("affiliation", creator.affiliation.empty() ? Data(false) : Data(creator.affiliation));
    creators.push_back(person);
  }
  view.set("creators", creators);
  Data notes = list();
  if (data.provenance.source) {
    for (const auto& note : data.provenance.source->notes) {
      notes.push_back(Data(reader_prose(note)));
    }
  }
  view.set("has_notes", Data(!notes.is_empty_list()));
  view.set("notes", notes);
  view.set("bibtex", dataset::bibtex(data, url));
  view.set("cff", dataset::cff(data, url));
  view.set("attribution", dataset::attribution(data, url));
  // The file's own words, when they add to what the creators' attribution says.
  view.set("recorded_attribution", data.license.attribution.empty() ? Data(false) : Data(data.license.attribution));
  view.set("url", url.empty() ? Data(false) : Data(url));
  view.set("reproduce", reproduce_steps(entry));
  view.set("errata", errata_view(entry));
  return view;
}

std::string band_text(double low, double high) { return trimmed_significant(low, 3) + " to " + trimmed_significant(high, 3); }

Data parity_cells(const dataset::Parity& parity)
{
  Data rows = list();
  for (const auto& cell : parity.cells) {
    Data row = object();
    row.set("layer", cell.layer);
    row.set("batch", std::to_string(cell.batch_size));
    row.set("layerbench_ms", ms_text(cell.layerbench_median_ms));
    row.set("python_ms", ms_text(cell.python_median_ms));
    row.set("ratio", trimmed_significant(cell.ratio, 3));
    std::string rounds;
    for (double ratio : cell.round_ratios) {
      rounds += (rounds.empty() ? "" : ", ") + trimmed_significant(ratio, 3);
    }
    row.set("rounds", rounds.empty() ? std::string(k_missing) : rounds);
    Data outside = Data(false);
    if (!cell.within_target) {
      outside = object();
      outside.set("note", cell.note.empty() ? std::string("outside the cell band; no explanation recorded") : cell.note);
    }
    row.set("outside", outside);
    rows.push_back(row);
  }
  return rows;
}

// One data/validation file: LayerBench's medians against Python's torch.utils.benchmark, cell by cell.
Data parity_view(const dataset::Parity& parity)
{
  const auto& t = parity.targets;
  const auto& s = parity.summary;
  Data view = object();
  view.set("id", parity.id);
  view.set("title", parity.title);
  view.set("created", parity.created);
  view.set("device", parity.device_name + " (" + parity.device_type + "), " + util::format_thousands(parity.threads)
                       + (parity.threads == 1 ? " thread" : " threads") + ", torch " + parity.torch_version
                       + ", CPU memory policy " + parity.cpu_memory_policy);
  view.set("rounds", util::format_thousands(parity.rounds));
  view.set("method", parity.method);
  view.set("command", public_command(parity.command));
  view.set("targets", "median ratio within " + band_text(t.median_ratio_low, t.median_ratio_high) + "; every cell of at least "
                        + ms_text(t.cell_min_ms) + " ms within " + band_text(t.cell_ratio_low, t.cell_ratio_high));
  const bool median_met = s.median_ratio >= t.median_ratio_low && s.median_ratio <= t.median_ratio_high;
  view.set("summary", "median ratio " + trimmed_significant(s.median_ratio, 4) + (median_met ? " (within its band)" : " (outside its band)")
                        + "; " + util::format_thousands(s.cells_within) + " of the " + util::format_thousands(s.cells_at_least_min_ms)
                        + " cells of at least " + ms_text(t.cell_min_ms) + " ms within the cell band; "
                        + util::format_thousands(s.cells) + " cells in all");
  view.set("cells", parity_cells(parity));
  return view;
}

// The recorded `layerbench run` with its --out replaced (the file it wrote is somebody else's path),
// every word quoted again: a reader pastes these lines into a shell, and a dataset's text must not
// become a command there. nullopt when the record is not such a command.
std::optional<std::string> rerun_command(const std::string& command_line, const std::string& out)
{
  auto words = util::shell_words(public_command(command_line));
  if (!words || words->size() < 2 || (*words)[0] != "layerbench" || (*words)[1] != "run") {
    return std::nullopt;
  }
  bool replaced = false;
  for (size_t i = 0; i < words->size(); ++i) {
    auto& word = (*words)[i];
    if (word.rfind("--out=", 0) == 0) {
      word = "--out=" + out;
      replaced = true;
    } else if (word == "--out" && i + 1 < words->size()) {
      (*words)[++i] = out;
      replaced = true;
    }
  }
  if (!replaced) {
    words->insert(words->end(), {"--out", out});
  }
  std::string command;
  for (const auto& word : *words) {
    command += (command.empty() ? "" : " ") + util::shell_quote(word);
  }
  return command;
}

// The device a dataset ran on, or the one its source page names (the kind column says which). A CPU's
// name carries its clock in some runs of a machine and not in others ("Intel(R) Xeon(R) Processor @
// 2.80GHz"): the index groups them under the name without it.
std::string device_group(const Dataset& data)
{
  std::string device = data.environment ? data.environment->device.name : std::string();
  if (device.empty() && data.provenance.source) {
    device = data.provenance.source->device;
  }
  return device.empty() ? std::string(k_missing) : device.substr(0, device.find(" @ "));
}

// "device-amd-epyc": a heading's anchor from the device's name.
std::string device_anchor(const std::string& device)
{
  std::string anchor = "device-";
  for (const char c : device) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      anchor += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (anchor.back() != '-') {
      anchor += '-';
    }
  }
  if (anchor.back() == '-') {
    anchor.pop_back();
  }
  return anchor;
}

// The torch release a dataset ran, or the one its source page states; "" when neither says.
std::string release_of(const Dataset& data)
{
  if (data.environment && !data.environment->torch_version.empty()) {
    return data.environment->torch_version;
  }
  return data.provenance.source ? data.provenance.source->torch_version : std::string();
}

// A release as one number for the table's sort (2.11.0 -> 2011000, after 2.9.1's 2009001), since the
// script compares text or single numbers and "2.11.0" is neither in the right order.
std::string release_sort_key(const std::string& release)
{
  if (release.empty()) {
    return "";
  }
  const auto parts = release_key(release);
  long long key = 0;
  for (size_t i = 0; i < 3; ++i) {
    key = key * 1000 + (i < parts.size() ? parts[i] : 0);
  }
  return std::to_string(key);
}

// What tells a dataset from its neighbours on one device: the settings its cells ran at, else its
// precision as the methodology records it.
std::string distinguishing_settings(const Dataset& file)
{
  const DeviceKind device = on_cuda(file) ? DeviceKind::cuda : DeviceKind::cpu;
  std::set<dataset::Axes> corners;
  for (const auto& cell : file.results) {
    corners.insert(cell.axes);
  }
  if (dataset::has_axes(file) && corners.size() == 1) {
    return corner_words(*corners.begin(), device);
  }
  if (corners.size() > 1) {
    std::vector<std::string> precisions;
    for (const auto& corner : corners) {
      const std::string words = value_words("precision", dataset::axis_value(corner, "precision"));
      if (std::find(precisions.begin(), precisions.end(), words) == precisions.end()) {
        precisions.push_back(words);
      }
    }
    std::string text;
    for (size_t i = 0; i < precisions.size(); ++i) {
      text += (i == 0 ? "" : i + 1 == precisions.size() ? " and " : ", ") + precisions[i];
    }
    return util::format_count(static_cast<int64_t>(corners.size()), "setting") + ": " + text;
  }
  if (!file.methodology) {
    return "not stated";
  }
  if (device == DeviceKind::cuda && file.environment) {
    return file.methodology->dtype + (file.environment->matmul_allow_tf32 ? ", TF32 on" : ", TF32 off");
  }
  return file.methodology->dtype;
}

// The newest version of the same dataset on the site, when it is newer than `entry`.
const SiteDataset* newest_version(const SiteData& site, const SiteDataset& entry)
{
  const SiteDataset* newest = nullptr;
  for (const SiteDataset* other : dataset_files(site)) {
    if (other->data.id == entry.data.id && other->origin == entry.origin && other->data.version > entry.data.version
        && (!newest || other->data.version > newest->data.version)) {
      newest = other;
    }
  }
  return newest;
}

// A version of the dataset linked from another's page: {href, label}, "v2, created 2026-11-24".
Data version_link(const SiteDataset& version, const std::string& root)
{
  return link(root + dataset_path(version),
              "v" + std::to_string(version.data.version) + ", created " + version.data.created.substr(0, version.data.created.find('T')));
}

// The version `entry` names in its `replaces` ("id@N"), where the site has it.
const SiteDataset* replaced_version(const SiteData& site, const SiteDataset& entry)
{
  for (const SiteDataset* other : dataset_files(site)) {
    if (!entry.data.replaces.empty() && dataset::reference(other->data.id, other->data.version) == entry.data.replaces
        && other->origin == entry.origin) {
      return other;
    }
  }
  return nullptr;
}

// The marks of a row: each erratum (with the anchor that the datasets page once gave it, so old links
// still land on the row), and a newer version that replaces it.
Data index_notes(const SiteData& site, const SiteDataset& entry)
{
  Data notes = list();
  const Data errata = errata_view(entry); // kept: the loop reads into it
  for (const auto& erratum : errata.list_value()) {
    Data note = object();
    note.set("text", erratum.get("field")->string_value() + " withdrawn");
    note.set("href", dataset_path(entry) + "#" + erratum.get("anchor")->string_value());
    note.set("id", erratum.get("anchor")->string_value());
    notes.push_back(note);
  }
  if (const SiteDataset* newer = newest_version(site, entry)) {
    Data note = object();
    note.set("text", "replaced by v" + std::to_string(newer->data.version));
    note.set("href", dataset_path(*newer));
    note.set("id", Data(false));
    notes.push_back(note);
  }
  return notes;
}

Data index_row(const SiteData& site, const SiteDataset& entry)
{
  const Dataset& file = entry.file ? *entry.file : entry.data;
  const std::string release = release_of(entry.data);
  const bool transcribed = entry.data.kind == dataset::Kind::published_reference;
  Data row = object();
  row.set("anchor", entry.slug); // the block's anchor on the page before the index, kept for old links
  row.set("href", dataset_path(entry));
  row.set("label", dataset_label(entry));
  row.set("title", dataset_full_title(entry));
  row.set("version", "v" + std::to_string(entry.data.version));
  row.set("version_sort", std::to_string(entry.data.version));
  row.set("kind", transcribed ? "reference" : "measured");
  row.set("torch", release.empty() ? std::string(k_missing) : transcribed ? release + ", as stated" : release);
  row.set("torch_sort", release_sort_key(release));
  row.set("date", entry.data.created.substr(0, entry.data.created.find('T')));
  // The sorting script reads a key as one number where it can ("2026-11-24T..." as 2026), so the time
  // goes to it as its digits alone.
  std::string created_digits;
  std::copy_if(entry.data.created.begin(), entry.data.created.end(), std::back_inserter(created_digits),
               [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  row.set("created_sort", created_digits);
  row.set("cells", util::format_thousands(static_cast<int64_t>(file.results.size())));
  row.set("settings", distinguishing_settings(file));
  row.set("rounds", transcribed ? std::string(k_missing) : std::to_string(entry.data.rounds ? entry.data.rounds->count : 1));
  row.set("notes", index_notes(site, entry));
  return row;
}

// One group per device, by name; in each, the datasets oldest release first, then oldest first.
Data index_groups(const SiteData& site)
{
  std::map<std::string, std::vector<const SiteDataset*>> by_device;
  for (const SiteDataset* entry : dataset_files(site)) {
    by_device[device_group(entry->data)].push_back(entry);
  }
  Data groups = list();
  for (auto& [device, entries] : by_device) {
    std::sort(entries.begin(), entries.end(), [](const SiteDataset* a, const SiteDataset* b) {
      return std::make_tuple(release_key(release_of(a->data)), a->data.created, a->data.id, a->data.version)
             < std::make_tuple(release_key(release_of(b->data)), b->data.created, b->data.id, b->data.version);
    });
    Data rows = list();
    for (const SiteDataset* entry : entries) {
      rows.push_back(index_row(site, *entry));
    }
    Data group = object();
    group.set("device", device);
    group.set("anchor", device_anchor(device));
    group.set("rows", rows);
    groups.push_back(group);
  }
  return groups;
}

} // namespace

Data reproduce_steps(const SiteDataset& entry)
{
  const Dataset& data = entry.data;
  const std::string mine = "my-run.json";
  Data view = object();
  Data lines = list();
  if (data.kind == dataset::Kind::published_reference) {
    view.set("intro", "LayerBench did not measure this dataset: it transcribes a published page. To measure the same "
                      "layers and batch sizes on your own GPU, in a LayerBench checkout:");
    lines.push_back(Data(std::string("make build")));
    lines.push_back(Data("build/layerbench run --device cuda --out " + mine));
  } else {
    const std::string& commit = data.provenance.git_commit;
    const bool known = !commit.empty() && commit != "unknown";
    const bool dirty = public_commit(commit) != commit;
    std::string intro = "Measured with " + data.provenance.tool + " " + data.provenance.tool_version;
    intro += known ? " at commit " + public_commit(commit) : ", commit not recorded";
    intro += dirty ? "; the uncommitted changes are not recorded, so the checkout below may differ from what ran." : ".";
    view.set("intro", intro + " To measure it again, in a LayerBench checkout on a machine like the one it names:");
    if (known) {
      lines.push_back(Data("git checkout " + util::shell_quote(dirty ? commit.substr(0, commit.rfind('-')) : commit)));
    }
    lines.push_back(Data(std::string("make build")));
    const auto& env = data.environment;
    const std::string tunables = env && env->glibc_tunables && !env->glibc_tunables->empty()
                                   ? "GLIBC_TUNABLES=" + util::shell_quote(*env->glibc_tunables) + " "
                                   : "";
    // A merged or hand-made dataset records another command; its matrix is measured by a plain run.
    const auto command = rerun_command(data.provenance.command_line, mine)
                           .value_or("layerbench run --device " + util::shell_quote(env ? env->device.type : "cpu")
                                     + " --out " + mine);
    lines.push_back(Data(tunables + "build/" + command));
  }
  lines.push_back(Data("build/layerbench diff " + entry.slug + ".json " + mine));
  view.set("lines", lines);
  view.set("download", entry.slug + ".json");
  return view;
}

// The method is stated once, with the settings as the featured dataset records them (else the first
// dataset that records any); each dataset's own settings and environment are on the datasets page.
PageSpec methodology_page(const SiteData& site, Data base, const std::string& base_url)
{
  const SiteDataset* recorded = site.datasets[site.featured].data.methodology ? &site.datasets[site.featured] : nullptr;
  for (size_t i = 0; !recorded && i < site.datasets.size(); ++i) {
    recorded = site.datasets[i].data.methodology ? &site.datasets[i] : nullptr;
  }
  base.set("settings", recorded ? dataset_block(*recorded, base_url, "") : Data(false));
  // The prose names the clock of the device the settings below were recorded on, and no other.
  base.set("timed_on_gpu", Data(recorded && (on_cuda(recorded->data) || recorded->data.methodology->timer == "cuda-events")));
  Data validations = list();
  for (const auto& parity : site.validations) {
    validations.push_back(parity_view(parity));
  }
  base.set("validations", validations);
  return {"methodology", "methodology.html", std::move(base), "methodology"};
}

PageSpec datasets_page(const SiteData& site, Data base)
{
  base.set("groups", index_groups(site));
  return {"datasets", "datasets.html", std::move(base), ""};
}

PageSpec dataset_page(const SiteData& site, const SiteDataset& entry, Data base, const std::string& base_url)
{
  const std::string root = base.get("root")->string_value();
  Data block = dataset_block(entry, base_url, root);
  // A replaced version's page leads forward to the newest one, and a newer version's back to the one it replaced.
  const SiteDataset* newer = newest_version(site, entry);
  const SiteDataset* older = replaced_version(site, entry);
  block.set("replaced_by", newer ? version_link(*newer, root) : Data(false));
  block.set("replaces_link", older ? version_link(*older, root) : Data(false));
  base.set("dataset", block);
  return {"dataset", dataset_path(entry), std::move(base), ""};
}

} // namespace layerbench::site
