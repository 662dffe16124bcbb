// SPDX-License-Identifier: MIT
#pragma once

// Seed 001's questions about whole models, answered from the model datasets on the site (issue 38): each
// answer holds only what its pairs of cells show, with the condition that makes each word true. The FAQ
// asks them of every model, a model's page of that model alone (`model` empty: every model).

#include "site/site_data.hpp"
#include "site/template_check.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace layerbench::site {

// What one sample of a model is: "images/s" for a model of B x C x H x W input, "sequences/s" for one
// of B x L tokens, "samples/s" otherwise.
std::string model_sample_unit(const dataset::Layer& model);
// A timed cell's samples per second: as recorded, else batch size over the median; nullopt untimed.
std::optional<double> samples_per_second(const dataset::Cell& cell);

// torch releases in release order (release_key: "2.11.0" after "2.9.1"), not as text.
bool by_release(const std::string& a, const std::string& b);
using Releases = std::set<std::string, bool (*)(const std::string&, const std::string&)>;

// The measured model datasets of one device and thread count, as the version history groups layers:
// each that no newer version on the site replaces, in site order.
struct DeviceModels
{
  std::string device;
  int threads = 0;
  bool cuda = false; // a GPU's runs are named without their host threads
  Releases releases{by_release};
  std::vector<const SiteDataset*> entries; // newest first
};
std::vector<DeviceModels> models_by_device(const SiteData& site);
// "AMD EPYC with 2 threads"; a GPU by its name alone.
std::string device_words(const DeviceModels& device);

// Where one setting is faster than another: only where the two cells' ranges lie apart.
enum class Verdict { faster, slower, unclear };
// a against b, two cells at one batch size. Both measured in rounds: faster where a's 95% interval over
// rounds ends below b's, slower for the reverse. Otherwise by the quartiles: faster where a's slow
// quartile (p75) is below b's fast one (p25). Unclear where the ranges overlap or a cell has none.
Verdict verdict_of(const dataset::Cell& a, const dataset::Cell& b);
// "faster", "slower", "no clear difference (their 95% intervals over rounds overlap)" or "(their
// interquartile ranges overlap)"; a faster or slower of cells not measured in rounds adds that it
// holds within one run.
std::string verdict_text(Verdict verdict, const dataset::Cell& a, const dataset::Cell& b);

// "Is PyTorch 2 faster than 1.x for training here?": {old_major, new_major, compared, series, no_series},
// the majors as the heading asks of them. Where one device has
// model datasets of two torch releases or more, `series` compares each training cell of the newest 1.x
// release with the newest 2.x one (or the oldest release with the newest, saying which major is missing);
// otherwise `no_series` says which release each device was measured on, and links the layers' history.
Data releases_answer(const SiteData& site, const std::string& model);
// "By how much does torch.compile help or hurt?": every compiled cell against its eager twin in the same
// dataset (model, mode, precision, batch, device); false where no dataset holds such a pair.
Data compile_answer(const SiteData& site, const std::string& model);
// "What does mixed precision give?": every bf16 or fp16 cell against its fp32 twin in the same dataset,
// grouped by device, the CPUs first; false where no dataset holds such a pair.
Data precision_answer(const SiteData& site, const std::string& model);
// The three together, as the FAQ and a model's page show them: {releases, compile, precision}.
Data model_answers(const SiteData& site, const std::string& model);

} // namespace layerbench::site
