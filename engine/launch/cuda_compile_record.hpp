// What one nvcc compile read and searched, recorded beside its PTX in the compiled-PTX cache
// (cuda_source.hpp) and checked again before the PTX is reused. The cache key holds the source,
// the flags and the toolchain (nvcc_toolchain.hpp); the record holds the rest of what the output
// depends on, which only the compile itself reveals:
//
//   file   every file nvcc's dependency output (-MD) lists — the source, its own headers and
//          the system and CUDA headers — with a digest of its bytes;
//   tool   the host preprocessor's binaries (cc1plus, clang), by stat identity;
//   folder every folder of the include search path, as the host preprocessor printed it under
//          -v (-I, -isystem, -iquote, CPATH and friends, nvcc.profile's, the compiler's own),
//          and every folder below it, with its mtime, ctime and inode: a header added anywhere
//          in the search path (one that would shadow another, or that a __has_include would now
//          find) changes the mtime of the folder it is added to, so checking a tree is one stat
//          per folder. Search folders that do not exist (those the preprocessor ignored) are
//          probes that must stay absent;
//   file   also the PTX itself, so that a record and a PTX of two different compiles never
//          pass for one;
//   probe  the names a quoted #include or __has_include of a file outside those trees would
//          look for in that file's own folder first (and the -include files in the working
//          folder): present or absent. A file outside the trees with a computed #include
//          (#include MACRO) has its whole folder recorded like a search folder instead.
//
// A compile is not recorded (so not cached) when the host preprocessor printed no search list,
// when the search path has more than 20,000 folders, or when anything recorded changed after the
// compile started (its ctime, which no one can set back, is at least the file system's clock at
// the start: the compile may have seen it half-written).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace volta::launch {

struct CompileObservation {
  std::string log;       // nvcc's output, with the host preprocessor's -v messages
  std::string make_deps; // nvcc's -MD output
  std::filesystem::path cwd;
  std::vector<std::filesystem::path> excluded; // never part of a tree (the cache folder)
  std::chrono::system_clock::time_point started;
  // The PTX as it will be kept (its final path and bytes): recorded like a file read, so that a
  // record never vouches for the PTX of another compile of the same key (two processes
  // compiling it while a header changed, their files renamed into place in between).
  std::filesystem::path ptx_path;
  std::string ptx_bytes;
};

struct CompileRecord {
  std::optional<std::string> text; // nullopt: not cached, for the reason below
  std::string why_not;
};

CompileRecord record_compile(const CompileObservation& compile);

// Whether everything `record` lists is still as it was.
bool record_holds(const std::string& record);

// The files of a make-style dependency list (`out.ptx : a.cu \ b.h ...`), relative ones
// resolved against `cwd`; spaces escaped as "\ " are part of a name.
std::vector<std::filesystem::path> dependency_files(const std::string& make_text,
                                                    const std::filesystem::path& cwd);

} // namespace volta::launch
