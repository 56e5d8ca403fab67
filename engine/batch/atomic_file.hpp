// Writing a file so that readers (threads of this process, other processes, a later run) see
// the whole new content or the old file, never a part: the bytes go to a temporary file beside
// the target (rename does not cross file systems), named per process, thread and call, and are
// renamed into place.
#pragma once

#include <string>
#include <string_view>

namespace volta::batch {

// False (and no temporary file left behind) when the file cannot be written.
bool write_file_atomically(const std::string& path, std::string_view bytes);

} // namespace volta::batch
