// The exit status of every volta-eg command (documented in docs/cli.md), and the one rule that
// turns a batch's results into it. Here, below the batch runner, the reports and the commands,
// because all three use it.
#pragma once

namespace volta {

enum ExitCode : int {
  kSuccess = 0,      // every verdict is the expected one (or EQUIVALENT / RACE_FREE)
  kMismatch = 1,     // some verdict differs from the expected one
  kBadInput = 2,     // malformed PTX, invalid manifest or pair file, bad flags, missing file
  kInternalError = 3 // a bug in volta-eg (an INCONSISTENT verdict among them): please report it
};

// An INCONSISTENT verdict (the proof contradicted by the emulator) wins over everything; bad
// input in any entry wins over a verdict that differs from its expectation.
inline int exit_status(bool any_bad_input, bool any_mismatch, bool any_inconsistent = false) {
  if (any_inconsistent)
    return kInternalError;
  if (any_bad_input)
    return kBadInput;
  return any_mismatch ? kMismatch : kSuccess;
}

} // namespace volta
