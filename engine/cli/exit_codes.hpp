// The exit status of every volta-eg command (documented in docs/cli.md).
#pragma once

namespace volta::cli {

enum ExitCode : int {
  kSuccess = 0,      // every verdict is the expected one (or EQUIVALENT / RACE_FREE)
  kMismatch = 1,     // some verdict differs from the expected one
  kBadInput = 2,     // malformed PTX, invalid manifest or pair file, bad flags, missing file
  kInternalError = 3 // a bug in volta-eg: please report it
};

} // namespace volta::cli
