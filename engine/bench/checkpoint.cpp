// SPDX-License-Identifier: MIT
#include "bench/checkpoint.hpp"

#include "dataset/io.hpp"
#include "dataset/same_run.hpp"
#include "util/error.hpp"

namespace layerbench::bench {

namespace {

// The cells go into the final file as they are: the loader holds them to the rules `validate` applies,
// all but completeness, so that a duplicate or out-of-matrix cell is refused now rather than in the file.
dataset::Dataset load_checkpoint(const std::filesystem::path& checkpoint)
{
  try {
    return dataset::load(checkpoint, dataset::Completeness::partial);
  } catch (const Error& error) {
    throw Error(std::string(error.what()) + " (cannot resume from this checkpoint; delete it to start afresh)");
  }
}

} // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& out)
{
  return out.string() + ".partial";
}

void check_resumable(const dataset::Dataset& saved, const dataset::Dataset& fresh, const std::string& origin)
{
  // Everything merge compares: a resumed file is one run, as the shards of one run are.
  const auto difference = dataset::run_difference(saved, fresh, dataset::ShardFields::compared);
  if (!difference) {
    return;
  }
  const auto field = difference->pointer.substr(1);
  throw Error(origin + ": --resume: the checkpoint ran with " + field + "=" + difference->first_value + ", this run asks "
              + field + "=" + difference->other_value + "; continue with the options and build that started it, or "
              "delete the checkpoint to start afresh");
}

void Checkpoint::resume_into(dataset::Dataset& fresh)
{
  if (!std::filesystem::exists(m_path)) {
    throw Error(m_path.string() + ": no checkpoint to resume from");
  }
  auto saved = load_checkpoint(m_path);
  check_resumable(saved, fresh, m_path.string());
  fresh.results = saved.results;
  fresh.created = saved.created;
  m_saved = fresh.results.size();
}

void Checkpoint::save(const dataset::Dataset& partial)
{
  if (m_path.empty()) {
    return;
  }
  try {
    dataset::save(m_path, partial, util::Overwrite::yes);
  } catch (const Error& error) {
    const auto lost = partial.results.size() - m_saved;
    throw Error(std::string(error.what()) + "; the checkpoint keeps " + std::to_string(m_saved) + " finished cells"
                + (lost > 0 ? " (the " + std::to_string(lost) + " measured since are lost)" : "")
                + "; free space or make the folder writable, then continue with the same command and --resume");
  }
  m_saved = partial.results.size();
}

} // namespace layerbench::bench
