// CUDA source as input (manifest "cuda", `--ref-cu`, Python `Kernel(cuda=...)`): the .cu file is
// compiled to PTX with `nvcc -ptx -lineinfo -arch=ARCH [flags]` and the engine reads that PTX.
// -lineinfo keeps the `.loc` lines, so that findings point at the user's own CUDA lines.
//
// nvcc is looked up on PATH, then as $CUDA_HOME/bin/nvcc; when neither has it the compile fails
// with an error saying so (never a guess). Compiled PTX is cached (on by default) under a key of
// everything the output depends on that is known before compiling: the source's bytes and
// absolute path (the PTX names it), the arch, the flags in their order (the include path's
// order with them), and the toolchain (nvcc_toolchain.hpp: nvcc's path and `--version`,
// nvcc.profile, cicc, the working folder, and the environment nvcc and its host compiler read:
// NVCC_APPEND_FLAGS, NVCC_PREPEND_FLAGS, CPATH, PATH ...). What only the compile reveals is
// recorded beside the PTX (cuda_compile_record.hpp): every file nvcc's dependency output lists,
// by content; the host preprocessor's binaries; every folder of the include search path, with
// its subfolders (a header added anywhere there could shadow one or answer a __has_include);
// and the names a quoted include would find first in an includer's own folder. A cached PTX is
// used only while all of that is unchanged; a compile that cannot be recorded is not reused.
// Files are written to a temporary name and renamed, so concurrent compiles of the same source
// (threads, processes) never read a partial file.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace volta::launch {

struct CudaCompileRequest {
  std::string source; // the .cu file
  std::string arch = "sm_80";
  std::vector<std::string> flags; // extra nvcc flags ("-DTILE=32", "-I", "include")
  // The cache folder: compiled PTX goes to CACHE/cuda/. Empty: $VOLTA_EG_CUDA_CACHE, else
  // $XDG_CACHE_HOME/volta-eg/cuda, else ~/.cache/volta-eg/cuda, else the temporary folder's
  // volta-eg-cuda.
  std::string cache_dir;
};

struct CudaCompileResult {
  std::string ptx_path;   // empty on failure
  std::string error;      // "cannot compile softmax.cu: nvcc not found ..." or nvcc's messages
  bool cached = false;    // the PTX of an earlier compile was used
  std::string not_cached; // why this compile's PTX will not be reused (empty: it will be)
  bool ok() const { return !ptx_path.empty(); }
};

// The nvcc that would compile (PATH, then $CUDA_HOME/bin/nvcc); nullopt when there is none.
std::optional<std::string> find_nvcc();

CudaCompileResult compile_cuda(const CudaCompileRequest& request);

// Whether `arch` reads as an nvcc architecture ("sm_80", "sm_90a", "compute_80").
bool valid_cuda_arch(const std::string& arch);

} // namespace volta::launch
