// What nvcc's output depends on besides the source, its flags and the files the compile reads
// (cuda_inputs.hpp): the toolchain and the environment that nvcc and its host compiler read.
// All of it goes into the key of the compiled-PTX cache (cuda_source.hpp), so that another
// nvcc, another nvcc.profile, another NVCC_APPEND_FLAGS or CPATH never finds a PTX compiled
// under the old ones.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/expected.hpp"

namespace volta::launch {

// The environment variables that take part in the key: nvcc's own (NVCC_APPEND_FLAGS,
// NVCC_PREPEND_FLAGS, NVCC_CCBIN, every other NVCC_*), the host preprocessor's (CPATH,
// C_INCLUDE_PATH, CPLUS_INCLUDE_PATH, GCC_EXEC_PREFIX, COMPILER_PATH, ...), the lookup of the
// host compiler and of nvcc's tools (PATH, CUDA_HOME, CUDA_PATH, LD_LIBRARY_PATH, LD_PRELOAD)
// and SOURCE_DATE_EPOCH (__DATE__, __TIME__).
std::vector<std::string> nvcc_environment_names();

// "size S mtime M ctime C inode I" of a file (following links), or "absent". A file replaced
// (a toolkit or compiler upgrade) has another inode or ctime, which no one can set back.
std::string stat_identity(const std::filesystem::path& path);

// The toolchain's part of the key: nvcc's path, the output of `nvcc --version` (run once per
// process and nvcc binary), nvcc's and cicc's stat identities, nvcc.profile's bytes, the working
// directory (relative -I paths) and the environment above. nullopt when `nvcc --version` fails,
// with the reason in `error`; `scratch` is a folder for its output.
Expected<std::string> toolchain_identity(const std::string& nvcc,
                                         const std::filesystem::path& scratch);

// Runs argv without a shell, stdout and stderr to `log`; the exit status, -1 when the program
// could not be started. posix_spawn: nothing runs between fork and exec in a process whose
// other threads may hold the allocator's locks.
int run_to_log(const std::vector<std::string>& argv, const std::filesystem::path& log);

} // namespace volta::launch
