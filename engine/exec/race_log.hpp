// The distinct data races of one kernel launch. A data race does not stop the run (every other
// failure does), so that a race found first, possibly a false alarm of the model, cannot hide
// another one. Races are distinct by their kind, the PTX lines of their two instructions, the
// memory space and the array: one racy line run by every thread is one race, not thousands.
// The log keeps, per distinct race, the occurrence found first in CTA order (the lowest CTA,
// then the earliest in that CTA's run), so that a run of the CTAs one after another gives the
// same log on every run and thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "engine/exec/kernel_run.hpp"

namespace volta::exec {

class RaceLog {
public:
  // Records a race that CTA `cta` found as its `seq`-th. Returns false when it is a distinct
  // race beyond kMaxReportedRaces: the log is then truncated, and the run may stop.
  bool add(uint32_t cta, uint32_t seq, const Failure& race);
  // The distinct races in CTA order; `truncated`: another distinct race was found past the limit.
  std::vector<Failure> take(bool& truncated);

private:
  // (kind, PTX line of the access, PTX line of the other access, space, array)
  using Key = std::tuple<std::string, uint32_t, uint32_t, std::string, std::string>;
  static Key key_of(const Failure& race);
  struct Entry {
    uint32_t cta = 0;
    uint32_t seq = 0;
    Key key;
    Failure race;
    bool before(const Entry& other) const {
      return std::tie(cta, seq) < std::tie(other.cta, other.seq);
    }
  };
  std::vector<Entry> entries_; // at most kMaxReportedRaces, in no particular order
  bool truncated_ = false;
};

} // namespace volta::exec
