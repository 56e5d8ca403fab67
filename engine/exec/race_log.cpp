#include "engine/exec/race_log.hpp"

#include <algorithm>

namespace volta::exec {

RaceLog::Key RaceLog::key_of(const Failure& race) {
  // The array (or variable) of the location: "sdata[3] (shared offset 0x10c)", "C[37]",
  // "buf+8 (shared offset 0x8)"; a location outside any names its space ("shared offset ...").
  const std::string& where = race.location;
  const std::string array = where.substr(0, where.find_first_of("[+ "));
  return Key{race.kind, race.first ? race.first->ptx_line : 0,
             race.second ? race.second->ptx_line : 0, race.space, array};
}

bool RaceLog::add(uint32_t cta, uint32_t seq, const Failure& race) {
  Entry entry{cta, seq, key_of(race), race};
  auto same = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.key == entry.key; });
  if (same != entries_.end()) {
    // CTAs running in parallel may find the occurrences of one race in any order: keep the one
    // a run in CTA order finds first.
    if (entry.before(*same))
      *same = std::move(entry);
    return true;
  }
  if (entries_.size() < kMaxReportedRaces) {
    entries_.push_back(std::move(entry));
    return true;
  }
  truncated_ = true;
  // Full: keep the races a run in CTA order would have kept (the first kMaxReportedRaces).
  auto last = std::max_element(entries_.begin(), entries_.end(),
                               [](const Entry& a, const Entry& b) { return a.before(b); });
  if (entry.before(*last))
    *last = std::move(entry);
  return false;
}

std::vector<Failure> RaceLog::take(bool& truncated) {
  std::sort(entries_.begin(), entries_.end(),
            [](const Entry& a, const Entry& b) { return a.before(b); });
  std::vector<Failure> races;
  races.reserve(entries_.size());
  for (auto& e : entries_)
    races.push_back(std::move(e.race));
  entries_.clear();
  truncated = truncated_;
  return races;
}

} // namespace volta::exec
