// The forms of Hopper's asynchronous instructions (see async_forms.hpp).
//
// Sources: PTX ISA 9.x, the syntax blocks of cp.async.bulk.tensor (9.7.9.25.5.2),
// cp.async.bulk.prefetch.tensor, cp.async.bulk.commit_group / wait_group (9.7.9.25.6),
// mbarrier (9.7.13.15), wgmma.mma_async / fence / commit_group / wait_group (9.7.15.5),
// setmaxnreg (9.7.19.6) and fence (9.7.13.4); the cuda::ptx reference of libcu++ (which lists
// each form with the PTX ISA version that brought it); checked against ptxas 13 -arch=sm_90a by
// tests/ptx/ptxas_differential_test.cpp on the kernels of examples/kernels/hopper. Like the
// instruction table, a check errs on the side of accepting: a form ptxas takes must pass.
#include "ptx/async_forms.hpp"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <string_view>

namespace volta::ptx {

namespace {

using At = FormProblem::At;

FormProblem on_opcode(std::string message) {
  return {At::Opcode, 0, std::move(message)};
}
FormProblem on_operand(size_t i, std::string message) {
  return {At::Operand, i, std::move(message)};
}

// The index of suffix `word`, or npos.
size_t suffix_index(const Instruction& ins, std::string_view word) {
  for (size_t i = 0; i < ins.suffixes.size(); ++i) {
    if (ins.suffixes[i] == word) {
      return i;
    }
  }
  return std::string_view::npos;
}

bool is_plain_address(const Operand& op) {
  return op.is<AddressOperand>() && op.as<AddressOperand>().coordinates.empty();
}
bool is_immediate(const Operand& op) {
  return op.is<IntImmediate>();
}
bool is_value(const Operand& op) {
  return op.is<NameOperand>() || op.is<IntImmediate>();
}

std::string count_text(size_t least, size_t most) {
  return std::to_string(least) + (most != least ? " to " + std::to_string(most) : "");
}

std::optional<FormProblem> operand_count(const Instruction& ins, std::string_view form,
                                         size_t least, size_t most) {
  const size_t n = ins.operands.size();
  if (n < least || n > most) {
    return on_opcode("'" + std::string(form) + "' takes " + count_text(least, most) + " operand" +
                     (most == 1 ? "" : "s") + ", found " + std::to_string(n));
  }
  return std::nullopt;
}

// Every suffix of `ins` from position `from` on must be one of `allowed` (space-separated).
std::optional<FormProblem> only_words(const Instruction& ins, size_t from, std::string_view allowed,
                                      std::string_view form) {
  for (size_t i = from; i < ins.suffixes.size(); ++i) {
    const std::string& s = ins.suffixes[i];
    bool found = false;
    size_t at = 0;
    while (at < allowed.size() && !found) {
      size_t end = allowed.find(' ', at);
      if (end == std::string_view::npos) {
        end = allowed.size();
      }
      found = allowed.substr(at, end - at) == s;
      at = end + 1;
    }
    if (!found) {
      return FormProblem{At::Suffix, i,
                         "modifier '." + s + "' is not allowed for '" + std::string(form) + "'"};
    }
    for (size_t k = from; k < i; ++k) {
      if (ins.suffixes[k] == s) {
        return FormProblem{At::Suffix, i, "duplicate modifier '." + s + "'"};
      }
    }
  }
  return std::nullopt;
}

// Exactly one of `words` (space-separated) among the suffixes from `from` on.
std::optional<FormProblem> exactly_one(const Instruction& ins, size_t from, std::string_view words,
                                       std::string_view what, std::string_view form) {
  int present = 0;
  size_t at = 0;
  while (at < words.size()) {
    size_t end = words.find(' ', at);
    if (end == std::string_view::npos) {
      end = words.size();
    }
    const std::string_view w = words.substr(at, end - at);
    for (size_t i = from; i < ins.suffixes.size(); ++i) {
      present += ins.suffixes[i] == w;
    }
    at = end + 1;
  }
  if (present != 1) {
    return on_opcode(
        fmt::format("'{}' needs {} {}", form, present == 0 ? "one" : "exactly one", what));
  }
  return std::nullopt;
}

// ---- cp.async.bulk ------------------------------------------------------------------------

// The rank of `.1d` ... `.5d`, or 0.
int rank_word(const Instruction& ins) {
  for (const std::string& s : ins.suffixes) {
    if (s.size() == 2 && s[1] == 'd' && s[0] >= '1' && s[0] <= '5') {
      return s[0] - '0';
    }
  }
  return 0;
}

// `[map, {c0, ..., cN}]` with rank coordinates (tile mode), or more than 2 for im2col.
std::optional<FormProblem> tensor_operand(const Instruction& ins, size_t i, int rank) {
  const Operand& op = ins.operands[i];
  if (!op.is<AddressOperand>() || op.as<AddressOperand>().coordinates.size() != 1 ||
      !op.as<AddressOperand>().coordinates[0].is<VectorOperand>() ||
      !op.as<AddressOperand>().base) {
    return on_operand(i, "expected the tensor operand [tensorMap, {coordinates}]");
  }
  const auto& coords = op.as<AddressOperand>().coordinates[0].as<VectorOperand>().elements;
  if (static_cast<int>(coords.size()) != rank) {
    return on_operand(i, "a ." + std::to_string(rank) + "d tensor access takes " +
                             std::to_string(rank) + " coordinate" + (rank == 1 ? "" : "s") +
                             ", found " + std::to_string(coords.size()));
  }
  for (const Operand& c : coords) {
    if (c.is<SinkOperand>()) {
      return on_operand(i, "a tensor coordinate cannot be '_'");
    }
  }
  return std::nullopt;
}

std::optional<FormProblem> cp_async_bulk(const Instruction& ins) {
  // suffixes[0] = async, [1] = bulk (the parser's condition for Opcode::CpAsyncBulk).
  const size_t n = ins.operands.size();
  // (A view of the suffix itself: `? suffixes[2] : ""` would make a temporary std::string.)
  const std::string_view third =
      ins.suffixes.size() > 2 ? std::string_view(ins.suffixes[2]) : std::string_view();
  if (third == "commit_group") {
    if (auto p = only_words(ins, 3, "", "cp.async.bulk.commit_group")) {
      return p;
    }
    return operand_count(ins, "cp.async.bulk.commit_group", 0, 0);
  }
  if (third == "wait_group") {
    if (auto p = only_words(ins, 3, "read", "cp.async.bulk.wait_group")) {
      return p;
    }
    if (auto p = operand_count(ins, "cp.async.bulk.wait_group", 1, 1)) {
      return p;
    }
    if (!is_immediate(ins.operands[0])) {
      return on_operand(0, "the group count of 'cp.async.bulk.wait_group' is an integer "
                           "constant");
    }
    return std::nullopt;
  }
  const bool prefetch = third == "prefetch";
  const bool tensor =
      third == "tensor" || (prefetch && ins.suffixes.size() > 3 && ins.suffixes[3] == "tensor");
  const size_t words_from = 2 + (prefetch ? 1 : 0) + (tensor ? 1 : 0);
  const bool hint = suffix_index(ins, "L2::cache_hint") != std::string_view::npos;
  if (tensor) {
    const int rank = rank_word(ins);
    const std::string form = prefetch ? "cp.async.bulk.prefetch.tensor" : "cp.async.bulk.tensor";
    if (rank == 0) {
      return on_opcode("'" + form + "' needs a dimension (.1d to .5d)");
    }
    const bool im2col = std::any_of(ins.suffixes.begin(), ins.suffixes.end(),
                                    [](const std::string& s) { return s.starts_with("im2col"); });
    if (im2col && rank < 3) {
      return on_opcode("im2col needs a dimension of .3d to .5d");
    }
    if (prefetch) {
      if (auto p = only_words(ins, words_from,
                              "1d 2d 3d 4d 5d L2 global L2::cache_hint tile im2col tile::gather4 "
                              "im2col::w im2col::w::128",
                              form)) {
        return p;
      }
      if (suffix_index(ins, "L2") == std::string_view::npos ||
          suffix_index(ins, "global") == std::string_view::npos) {
        return on_opcode("'" + form + "' needs .L2.global");
      }
      if (auto p = operand_count(ins, form, 1, 1 + (im2col ? 1 : 0) + (hint ? 1 : 0))) {
        return p;
      }
      if (auto p = tensor_operand(ins, 0, rank)) {
        return p;
      }
      if (hint && n < 2) {
        return on_opcode("'.L2::cache_hint' needs a cache-policy operand");
      }
      return std::nullopt;
    }
    const bool store = suffix_index(ins, "bulk_group") != std::string_view::npos;
    if (store) {
      // shared::cta -> global, completion by bulk async-group.
      if (auto p = only_words(ins, words_from,
                              "1d 2d 3d 4d 5d global shared::cta bulk_group L2::cache_hint tile "
                              "im2col_no_offs",
                              form)) {
        return p;
      }
      if (suffix_index(ins, "global") == std::string_view::npos ||
          suffix_index(ins, "shared::cta") == std::string_view::npos) {
        return on_opcode("a tensor store '" + form + "...bulk_group' is .global.shared::cta");
      }
      if (auto p = operand_count(ins, form, 2, 2 + (hint ? 1 : 0))) {
        return p;
      }
      if (hint && n != 3) {
        return on_opcode("'.L2::cache_hint' needs a cache-policy operand");
      }
      if (auto p = tensor_operand(ins, 0, rank)) {
        return p;
      }
      if (!is_plain_address(ins.operands[1])) {
        return on_operand(1, "expected the shared-memory source [srcMem]");
      }
      return std::nullopt;
    }
    // global -> shared, completion on an mbarrier.
    if (auto p = only_words(ins, words_from,
                            "1d 2d 3d 4d 5d shared::cluster shared::cta global "
                            "mbarrier::complete_tx::bytes multicast::cluster cta_group::1 "
                            "cta_group::2 L2::cache_hint tile tile::gather4 im2col im2col::w "
                            "im2col::w::128",
                            form)) {
      return p;
    }
    if (suffix_index(ins, "global") == std::string_view::npos ||
        (suffix_index(ins, "shared::cluster") == std::string_view::npos &&
         suffix_index(ins, "shared::cta") == std::string_view::npos)) {
      return on_opcode("a tensor load '" + form + "' is .shared::cluster.global");
    }
    if (suffix_index(ins, "mbarrier::complete_tx::bytes") == std::string_view::npos) {
      return on_opcode("a tensor load '" + form +
                       "' needs its completion mechanism .mbarrier::complete_tx::bytes");
    }
    const bool multicast = suffix_index(ins, "multicast::cluster") != std::string_view::npos;
    if (multicast && suffix_index(ins, "shared::cluster") == std::string_view::npos) {
      return on_opcode("'.multicast::cluster' needs the destination .shared::cluster");
    }
    const size_t least = 3 + (multicast ? 1 : 0) + (hint ? 1 : 0);
    if (auto p = operand_count(ins, form, least, least + (im2col ? 1 : 0))) {
      return p;
    }
    if (!is_plain_address(ins.operands[0])) {
      return on_operand(0, "expected the shared-memory destination [dstMem]");
    }
    if (auto p = tensor_operand(ins, 1, rank)) {
      return p;
    }
    if (!is_plain_address(ins.operands[2])) {
      return on_operand(2, "expected the mbarrier address [mbar]");
    }
    for (size_t i = 3; i < n; ++i) {
      if (!is_value(ins.operands[i]) && !ins.operands[i].is<VectorOperand>()) {
        return on_operand(i, "expected a register or constant");
      }
    }
    return std::nullopt;
  }
  if (prefetch) {
    // cp.async.bulk.prefetch.L2.global{.L2::cache_hint} [srcMem], size{, cache-policy}
    if (auto p =
            only_words(ins, words_from, "L2 global L2::cache_hint", "cp.async.bulk.prefetch")) {
      return p;
    }
    if (suffix_index(ins, "L2") == std::string_view::npos ||
        suffix_index(ins, "global") == std::string_view::npos) {
      return on_opcode("'cp.async.bulk.prefetch' needs .L2.global");
    }
    if (auto p =
            operand_count(ins, "cp.async.bulk.prefetch", 2 + (hint ? 1 : 0), 2 + (hint ? 1 : 0))) {
      return p;
    }
    if (!is_plain_address(ins.operands[0])) {
      return on_operand(0, "expected the global source [srcMem]");
    }
    return std::nullopt;
  }
  // Non-tensor bulk copies: [dst], [src], size{, [mbar]}{, ctaMask}{, cache-policy}{, byteMask}.
  if (auto p = only_words(ins, 2,
                          "shared::cluster shared::cta global mbarrier::complete_tx::bytes "
                          "bulk_group multicast::cluster L2::cache_hint cp_mask",
                          "cp.async.bulk")) {
    return p;
  }
  if (auto p = operand_count(ins, "cp.async.bulk", 3, 6)) {
    return p;
  }
  if (!is_plain_address(ins.operands[0]) || !is_plain_address(ins.operands[1])) {
    return on_operand(is_plain_address(ins.operands[0]) ? 1 : 0,
                      "expected the addresses [dstMem], [srcMem]");
  }
  return std::nullopt;
}

// ---- mbarrier -----------------------------------------------------------------------------

std::optional<FormProblem> mbarrier(const Instruction& ins) {
  const std::string_view verbs =
      "init inval arrive arrive_drop test_wait try_wait pending_count expect_tx complete_tx";
  // `.expect_tx` is a verb alone (mbarrier.expect_tx) and a modifier of arrive/arrive_drop.
  // The operation comes first: ptxas 13 reads `mbarrier.release.arrive` as an unknown modifier.
  static constexpr std::array<std::string_view, 9> kVerbs = {
      "init",     "inval",         "arrive",    "arrive_drop", "test_wait",
      "try_wait", "pending_count", "expect_tx", "complete_tx"};
  if (ins.suffixes.empty() ||
      std::find(kVerbs.begin(), kVerbs.end(), ins.suffixes[0]) == kVerbs.end()) {
    return ins.suffixes.empty()
               ? on_opcode("'mbarrier' needs one operation (.init, .arrive, .try_wait, ...)")
               : FormProblem{At::Suffix, 0,
                             "'mbarrier' is written mbarrier.operation... (.init, .arrive, "
                             ".try_wait, ...), not '." +
                                 ins.suffixes[0] + "' first"};
  }
  const bool arrive = suffix_index(ins, "arrive") != std::string_view::npos ||
                      suffix_index(ins, "arrive_drop") != std::string_view::npos;
  const bool expect_tx = suffix_index(ins, "expect_tx") != std::string_view::npos;
  if (arrive && expect_tx) {
    if (auto p = exactly_one(ins, 0, "arrive arrive_drop", "operation", "mbarrier")) {
      return p;
    }
  } else if (auto p = exactly_one(ins, 0, verbs, "operation (.init, .arrive, .try_wait, ...)",
                                  "mbarrier")) {
    return p;
  }
  auto has = [&](std::string_view w) { return suffix_index(ins, w) != std::string_view::npos; };
  const bool cluster_space = has("shared::cluster");
  // One memory order and one scope at most; a scope only with an order (ptxas 13: "Modifier
  // '.cta' requires order with 'mbarrier...'").
  const int orders = has("release") + has("acquire") + has("relaxed");
  const int scopes = has("cta") + has("cluster");
  if (orders > 1 || scopes > 1) {
    return on_opcode(std::string("'mbarrier' takes at most one ") +
                     (orders > 1 ? "memory order" : "scope"));
  }
  if (scopes == 1 && orders == 0) {
    return on_opcode("a scope (.cta, .cluster) on 'mbarrier' needs a memory order (.release, "
                     ".acquire or .relaxed)");
  }
  auto address_at = [&](size_t i) -> std::optional<FormProblem> {
    if (!is_plain_address(ins.operands[i])) {
      return on_operand(i, "expected the mbarrier address [addr]");
    }
    return std::nullopt;
  };
  if (has("init") || has("inval")) {
    const std::string form = has("init") ? "mbarrier.init" : "mbarrier.inval";
    if (auto p = only_words(ins, 0, "init inval shared shared::cta b64", form)) {
      return p;
    }
    if (auto p = operand_count(ins, form, has("init") ? 2 : 1, has("init") ? 2 : 1)) {
      return p;
    }
    return address_at(0);
  }
  if (has("pending_count")) {
    if (auto p = only_words(ins, 0, "pending_count b64", "mbarrier.pending_count")) {
      return p;
    }
    return operand_count(ins, "mbarrier.pending_count", 2, 2);
  }
  if (has("test_wait") || has("try_wait")) {
    const bool try_wait = has("try_wait");
    const std::string form = try_wait ? "mbarrier.try_wait" : "mbarrier.test_wait";
    if (auto p = only_words(ins, 0,
                            "test_wait try_wait parity acquire relaxed cta cluster shared "
                            "shared::cta b64",
                            form)) {
      return p;
    }
    if (has("relaxed") && !has("cta") && !has("cluster")) {
      return on_opcode("'.relaxed' on '" + form + "' needs a scope (.cta or .cluster)");
    }
    if (auto p = operand_count(ins, form, 3, try_wait ? 4 : 3)) {
      return p;
    }
    if (ins.operands[0].is<SinkOperand>() || !ins.operands[0].is<NameOperand>()) {
      return on_operand(0, "expected the predicate waitComplete");
    }
    for (size_t i = 2; i < ins.operands.size(); ++i) {
      if (!is_value(ins.operands[i])) {
        return on_operand(i, "expected a register or constant");
      }
    }
    return address_at(1);
  }
  if (arrive) {
    const std::string form = has("arrive_drop") ? "mbarrier.arrive_drop" : "mbarrier.arrive";
    if (auto p = only_words(ins, 0,
                            "arrive arrive_drop expect_tx noComplete release relaxed cta cluster "
                            "shared shared::cta shared::cluster b64",
                            form)) {
      return p;
    }
    if (has("noComplete") && (expect_tx || cluster_space)) {
      return on_opcode("'.noComplete' does not combine with " +
                       std::string(expect_tx ? "'.expect_tx'" : "'.shared::cluster'"));
    }
    const size_t least = expect_tx || has("noComplete") ? 3 : 2;
    if (auto p = operand_count(ins, form, least, 3)) {
      return p;
    }
    if (cluster_space && !ins.operands[0].is<SinkOperand>()) {
      return on_operand(0, "an arrive on a .shared::cluster mbarrier returns no state: its "
                           "destination is '_'");
    }
    if (ins.operands.size() == 3 && !is_value(ins.operands[2])) {
      return on_operand(2, "expected a register or constant");
    }
    return address_at(1);
  }
  // mbarrier.expect_tx / mbarrier.complete_tx{.relaxed}{.scope}{.space}.b64 [addr], txCount
  const std::string form = has("expect_tx") ? "mbarrier.expect_tx" : "mbarrier.complete_tx";
  if (auto p = only_words(ins, 0,
                          "expect_tx complete_tx relaxed cta cluster shared shared::cta "
                          "shared::cluster b64",
                          form)) {
    return p;
  }
  if (auto p = operand_count(ins, form, 2, 2)) {
    return p;
  }
  return address_at(0);
}

// ---- wgmma --------------------------------------------------------------------------------

// m64nNkK: N and K, or nullopt.
std::optional<std::pair<int, int>> wgmma_shape(const std::string& s) {
  if (!s.starts_with("m64n")) {
    return std::nullopt;
  }
  const size_t k = s.find('k', 4);
  if (k == std::string::npos || k == 4 || k + 1 >= s.size()) {
    return std::nullopt;
  }
  int n = 0, kk = 0;
  for (size_t i = 4; i < k; ++i) {
    if (s[i] < '0' || s[i] > '9' || n > 1000) {
      return std::nullopt;
    }
    n = n * 10 + (s[i] - '0');
  }
  for (size_t i = k + 1; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9' || kk > 1000) {
      return std::nullopt;
    }
    kk = kk * 10 + (s[i] - '0');
  }
  return std::pair{n, kk};
}

std::optional<FormProblem> wgmma(const Instruction& ins) {
  const std::string_view op =
      ins.suffixes.empty() ? std::string_view() : std::string_view(ins.suffixes[0]);
  // ptxas 13 requires .sync ("'.sync modifier required") and takes the form without .aligned.
  auto sync_aligned = [&](std::string_view form) -> std::optional<FormProblem> {
    if (suffix_index(ins, "sync") == std::string_view::npos) {
      return on_opcode("'" + std::string(form) + "' needs .sync");
    }
    return std::nullopt;
  };
  if (op == "fence" || op == "commit_group") {
    const std::string form = "wgmma." + std::string(op);
    if (auto p = only_words(ins, 1, "sync aligned", form)) {
      return p;
    }
    if (auto p = sync_aligned(form)) {
      return p;
    }
    return operand_count(ins, form, 0, 0);
  }
  if (op == "wait_group") {
    if (auto p = only_words(ins, 1, "sync aligned", "wgmma.wait_group")) {
      return p;
    }
    if (auto p = sync_aligned("wgmma.wait_group")) {
      return p;
    }
    if (auto p = operand_count(ins, "wgmma.wait_group", 1, 1)) {
      return p;
    }
    if (!is_immediate(ins.operands[0])) {
      return on_operand(0, "the group count of 'wgmma.wait_group' is an integer constant");
    }
    return std::nullopt;
  }
  if (op != "mma_async") {
    return FormProblem{At::Suffix, 0,
                       "expected .mma_async, .fence, .commit_group or .wait_group after 'wgmma'"};
  }
  if (suffix_index(ins, "sp") != std::string_view::npos) {
    return std::nullopt; // sparse wgmma: not checked further (refused by the engine)
  }
  if (auto p = sync_aligned("wgmma.mma_async")) {
    return p;
  }
  // The shape and the three types (dtype, atype, btype), in order.
  std::optional<std::pair<int, int>> shape;
  size_t shape_at = 0;
  std::vector<std::string_view> types;
  for (size_t i = 1; i < ins.suffixes.size(); ++i) {
    const std::string& s = ins.suffixes[i];
    if (s == "sync" || s == "aligned" || s == "satfinite" || s == "and" || s == "popc") {
      continue;
    }
    if (auto sh = wgmma_shape(s); sh && !shape) {
      shape = sh;
      shape_at = i;
      continue;
    }
    if (s == "f16" || s == "f32" || s == "bf16" || s == "tf32" || s == "e4m3" || s == "e5m2" ||
        s == "s32" || s == "s8" || s == "u8" || s == "b1") {
      types.push_back(s);
      continue;
    }
    return FormProblem{At::Suffix, i, "modifier '." + s + "' is not allowed for 'wgmma.mma_async'"};
  }
  if (!shape) {
    return on_opcode("'wgmma.mma_async' needs a shape (.m64nNkK)");
  }
  if (types.size() != 3) {
    return on_opcode("'wgmma.mma_async' needs three types (.dtype.atype.btype), found " +
                     std::to_string(types.size()));
  }
  const std::string_view d = types[0], a = types[1], b = types[2];
  // K and the dtypes of each input type; the trans immediates only for f16/bf16.
  int k = 0;
  bool dtype_ok = false;
  bool integer = false;
  if ((a == "f16" || a == "bf16") && b == a) {
    k = 16;
    dtype_ok = d == "f32" || (a == "f16" && d == "f16");
  } else if (a == "tf32" && b == "tf32") {
    k = 8;
    dtype_ok = d == "f32";
  } else if ((a == "e4m3" || a == "e5m2") && (b == "e4m3" || b == "e5m2")) {
    k = 32;
    dtype_ok = d == "f32" || d == "f16";
  } else if ((a == "s8" || a == "u8") && (b == "s8" || b == "u8")) {
    k = 32;
    dtype_ok = d == "s32";
    integer = true;
  } else if (a == "b1" && b == "b1") {
    k = 256;
    dtype_ok = d == "s32";
    integer = true;
  }
  if (k == 0 || !dtype_ok) {
    return on_opcode("'wgmma.mma_async' has no form ." + std::string(d) + "." + std::string(a) +
                     "." + std::string(b));
  }
  const auto [n_dim, k_dim] = *shape;
  // f16/bf16/tf32/fp8: N = 8, 16, ..., 256; integer and b1: 8, 16, 24, then multiples of 16.
  const bool n_ok =
      n_dim >= 8 && n_dim <= 256 && n_dim % 8 == 0 && (!integer || n_dim <= 24 || n_dim % 16 == 0);
  if (!n_ok || k_dim != k) {
    return FormProblem{
        At::Suffix, shape_at,
        "shape '." + ins.suffixes[shape_at] + "' is not a shape of wgmma." + std::string(d) + "." +
            std::string(a) + "." + std::string(b) + " (m64nNk" + std::to_string(k) + ", N " +
            (integer ? "8, 16, 24 or a multiple of 16" : "a multiple of 8") + " up to 256)"};
  }
  if (suffix_index(ins, "satfinite") != std::string_view::npos && a != "s8" && a != "u8") {
    return FormProblem{At::Suffix, suffix_index(ins, "satfinite"),
                       "'.satfinite' applies to the integer wgmma only"};
  }
  const bool is_b1 = a == "b1";
  if (is_b1 != (suffix_index(ins, "and") != std::string_view::npos &&
                suffix_index(ins, "popc") != std::string_view::npos)) {
    return on_opcode(is_b1 ? "the .b1 wgmma needs .and.popc" : "'.and.popc' is for .b1 only");
  }
  // Operands: d, a-desc or {a regs}, b-desc, scale-d, then the immediates.
  const bool a_in_registers = ins.operands.size() > 1 && ins.operands[1].is<VectorOperand>();
  const bool transposable = a == "f16" || a == "bf16";
  const size_t immediates =
      integer ? 0 : 2 + (transposable ? (a_in_registers ? 1 : 2) : 0); // scale-a/b, trans
  if (a_in_registers && integer && is_b1) {
    return on_operand(1, "the .b1 wgmma takes A from shared memory only (a descriptor)");
  }
  const size_t expected = 4 + immediates;
  if (ins.operands.size() != expected) {
    return on_opcode("this 'wgmma.mma_async' form takes " + std::to_string(expected) +
                     " operands, found " + std::to_string(ins.operands.size()));
  }
  if (!ins.operands[0].is<VectorOperand>()) {
    return on_operand(0, "expected the accumulator vector {d0, ...}");
  }
  const size_t d_count = static_cast<size_t>(n_dim) / (d == "f16" ? 4 : 2);
  if (ins.operands[0].as<VectorOperand>().elements.size() != d_count) {
    return on_operand(0, "the accumulator of m64n" + std::to_string(n_dim) + " ." + std::string(d) +
                             " holds " + std::to_string(d_count) + " registers, found " +
                             std::to_string(ins.operands[0].as<VectorOperand>().elements.size()));
  }
  if (a_in_registers && ins.operands[1].as<VectorOperand>().elements.size() != 4) {
    return on_operand(1, "A from registers is 4 registers, found " +
                             std::to_string(ins.operands[1].as<VectorOperand>().elements.size()));
  }
  if (!a_in_registers && !ins.operands[1].is<NameOperand>()) {
    return on_operand(1, "expected the A descriptor (a 64-bit register) or {a0, a1, a2, a3}");
  }
  if (!ins.operands[2].is<NameOperand>()) {
    return on_operand(2, "expected the B descriptor (a 64-bit register)");
  }
  if (!is_value(ins.operands[3])) {
    return on_operand(3, "expected scale-d (a predicate)");
  }
  for (size_t i = 4; i < expected; ++i) {
    const Operand& o = ins.operands[i];
    if (!is_immediate(o)) {
      return on_operand(i, "expected an integer constant");
    }
    const int64_t v = o.as<IntImmediate>().value;
    const bool scale = i < 6;
    if (scale ? (v != 1 && v != -1) : (v != 0 && v != 1)) {
      return on_operand(i, std::string(scale ? "imm-scale" : "imm-trans") + " must be " +
                               (scale ? "1 or -1" : "0 or 1") + ", found " + std::to_string(v));
    }
  }
  return std::nullopt;
}

// ---- setmaxnreg, fence --------------------------------------------------------------------

std::optional<FormProblem> setmaxnreg(const Instruction& ins) {
  if (ins.operands.size() != 1 || !is_immediate(ins.operands[0])) {
    return ins.operands.empty() ? on_opcode("'setmaxnreg' takes a register count")
                                : on_operand(0, "the register count of 'setmaxnreg' is an "
                                                "integer constant");
  }
  const int64_t v = ins.operands[0].as<IntImmediate>().value;
  if (v < 24 || v > 256 || v % 8 != 0) {
    return on_operand(0, "the register count of 'setmaxnreg' is a multiple of 8 from 24 to 256, "
                         "found " +
                             std::to_string(v));
  }
  return std::nullopt;
}

// prefetch{.space}.level [a]: .L1/.L2 on .global/.local (or generic), .L2::evict_last /
// .L2::evict_normal on .global (or generic), .tensormap on .const/.param (or generic); the
// space comes first ("prefetch.tensormap.global" is refused by ptxas).
std::optional<FormProblem> prefetch(const Instruction& ins) {
  if (auto p = only_words(ins, 0,
                          "global local const param L1 L2 L2::evict_last L2::evict_normal "
                          "tensormap",
                          "prefetch")) {
    return p;
  }
  if (auto p = exactly_one(ins, 0, "L1 L2 L2::evict_last L2::evict_normal tensormap",
                           "level (.L1, .L2, .L2::evict_last, .L2::evict_normal, .tensormap)",
                           "prefetch")) {
    return p;
  }
  if (ins.suffixes.size() > 2) {
    return on_opcode("'prefetch' is written prefetch{.space}.level");
  }
  auto is_level = [](const std::string& w) {
    return w == "L1" || w == "L2" || w.starts_with("L2::") || w == "tensormap";
  };
  const size_t level_at = is_level(ins.suffixes[0]) ? 0 : 1;
  const std::string_view level = ins.suffixes[level_at];
  if (ins.suffixes.size() == 2) {
    // ptxas 13 takes the space on either side of the level (prefetch.tensormap.param).
    const std::string& space = ins.suffixes[1 - level_at];
    if (is_level(space)) {
      return on_opcode("'prefetch' is written prefetch{.space}.level");
    }
    const bool ok = level == "tensormap"        ? (space == "const" || space == "param")
                    : level.starts_with("L2::") ? space == "global"
                                                : (space == "global" || space == "local");
    if (!ok) {
      return FormProblem{At::Suffix, 1 - level_at,
                         "state space '." + space + "' does not go with '." + std::string(level) +
                             "' of 'prefetch'"};
    }
  }
  if (auto p = operand_count(ins, "prefetch", 1, 1)) {
    return p;
  }
  if (!is_plain_address(ins.operands[0])) {
    return on_operand(0, "expected the address [a]");
  }
  return std::nullopt;
}

// barrier.cluster.arrive{.release|.relaxed}{.aligned}, barrier.cluster.wait{.acquire}{.aligned}.
std::optional<FormProblem> barrier_cluster(const Instruction& ins) {
  if (ins.suffixes.size() < 2 || ins.suffixes[0] != "cluster" ||
      (ins.suffixes[1] != "arrive" && ins.suffixes[1] != "wait")) {
    return on_opcode("'barrier.cluster' is written barrier.cluster.arrive... or "
                     "barrier.cluster.wait...");
  }
  const bool arrive = ins.suffixes[1] == "arrive";
  if (auto p = only_words(ins, 2, arrive ? "release relaxed aligned" : "acquire aligned",
                          arrive ? "barrier.cluster.arrive" : "barrier.cluster.wait")) {
    return p;
  }
  if (arrive && suffix_index(ins, "release") != std::string_view::npos &&
      suffix_index(ins, "relaxed") != std::string_view::npos) {
    return on_opcode("'barrier.cluster.arrive' takes one of .release, .relaxed");
  }
  return std::nullopt;
}

std::optional<FormProblem> fence(const Instruction& ins) {
  const std::string first = ins.suffixes.empty() ? std::string() : ins.suffixes[0];
  if (first != "mbarrier_init" && first != "proxy") {
    // fence{.sem}.scope (sem .sc .acq_rel .acquire .release .relaxed, scope .cta .cluster .gpu
    // .sys) and the .sync_restrict forms: no other word (ptxas refuses the rest).
    if (auto p = only_words(ins, 0,
                            "sc acq_rel acquire release relaxed cta cluster gpu sys "
                            "sync_restrict::shared::cta sync_restrict::shared::cluster "
                            "op_restrict",
                            "fence")) {
      return p;
    }
    return operand_count(ins, "fence", 0, 0);
  }
  if (!ins.suffixes.empty() && ins.suffixes[0] == "mbarrier_init") {
    // fence.mbarrier_init.release.cluster: its only form.
    if (auto p = only_words(ins, 1, "release cluster", "fence.mbarrier_init")) {
      return p;
    }
    if (ins.suffixes.size() != 3) {
      return on_opcode("'fence.mbarrier_init' is written fence.mbarrier_init.release.cluster");
    }
    return operand_count(ins, "fence.mbarrier_init", 0, 0);
  }
  if (!ins.suffixes.empty() && ins.suffixes[0] == "proxy") {
    // fence.proxy.proxykind: .alias, .async{.space}, .tensormap::generic.{release,acquire}.scope
    // (and .async::generic forms of newer PTX, not checked further).
    const std::string kind = ins.suffixes.size() > 1 ? ins.suffixes[1] : std::string();
    if (kind != "alias" && kind != "async" && !kind.starts_with("tensormap::") &&
        !kind.starts_with("async::")) {
      return ins.suffixes.size() > 1
                 ? FormProblem{At::Suffix, 1,
                               "modifier '." + kind +
                                   "' is not a proxy kind of 'fence.proxy' "
                                   "(.alias, .async, .tensormap::generic)"}
                 : on_opcode("'fence.proxy' needs a proxy kind (.alias, .async, "
                             ".tensormap::generic)");
    }
  }
  if (ins.suffixes.size() >= 2 && ins.suffixes[0] == "proxy" && ins.suffixes[1] == "async") {
    if (auto p = only_words(ins, 2, "global shared::cta shared::cluster", "fence.proxy.async")) {
      return p;
    }
    if (ins.suffixes.size() > 3) {
      return FormProblem{At::Suffix, 3, "'fence.proxy.async' takes at most one state space"};
    }
    return operand_count(ins, "fence.proxy.async", 0, 0);
  }
  return std::nullopt;
}

} // namespace

std::optional<FormProblem> async_form_problem(const Instruction& ins) {
  switch (ins.opcode) {
  case Opcode::CpAsyncBulk:
    return cp_async_bulk(ins);
  case Opcode::Mbarrier:
    return mbarrier(ins);
  case Opcode::Wgmma:
    return wgmma(ins);
  case Opcode::Setmaxnreg:
    return setmaxnreg(ins);
  case Opcode::Fence:
    return fence(ins);
  case Opcode::Barrier:
    return std::find(ins.suffixes.begin(), ins.suffixes.end(), "cluster") != ins.suffixes.end()
               ? barrier_cluster(ins)
               : std::nullopt;
  case Opcode::Prefetch:
    return ins.opcode_name == "prefetch" ? prefetch(ins) : std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace volta::ptx
