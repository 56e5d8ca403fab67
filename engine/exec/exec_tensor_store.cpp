// cp.async.bulk.tensor tile stores (TMA, shared -> global) and their bulk async-groups in the
// symbolic CTA; the emulator's counterpart is emulate/tensor_store.cpp. Both follow
// tensor_copy.hpp: the box is read from shared memory and its in-bounds elements are written to
// global memory at the issue. The hardware reads the source at some time before the
// cp.async.bulk.wait_group.read that retires the store's group, and writes global memory at some
// time before the (non-.read) cp.async.bulk.wait_group that retires it, or the kernel's end. What
// makes the issue stand for every such time is checked here:
// - the source bytes are read through the async proxy: a byte whose last generic-proxy write
//   (st.shared, stmatrix, ...) was not followed, in its writing thread, by a fence.proxy.async
//   that is ordered before the issue is a DATA_RACE (the store may read the old bytes); the read
//   itself is race-checked at the issue as a read by the issuing thread (a barrier must order
//   the writers before it);
// - no thread may write the source until a wait_group(.read) of the issuing thread retires the
//   store: a write while it is in flight is a DATA_RACE whatever orders it (a barrier does not
//   complete a bulk copy); at the retirement each byte is read again, race-checked as a read by
//   the issuing thread (a later write must be ordered after it) and compared with what the issue
//   read (a safety net: the in-flight check already caught every write);
// - a thread that ends with a store not retired by a wait_group(.read) is refused: the shared
//   memory it reads is released when the CTA ends (CUTLASS and FlashAttention-3 wait);
// - the global bytes a tensor store writes are the async proxy's: any other access of them by
//   the kernel, before or after, from any thread, another tensor store included, is refused as
//   not modelled (their order needs fence.proxy.async and the wait_group, which only the
//   issuing thread sees); the write is race-checked at the issue as a store by the issuing
//   thread (another CTA's access of the same bytes is then a race as for any store).
#include <bit>
#include <fmt/format.h>

#include "engine/exec/cta_runner.hpp"
#include "engine/exec/tensor_copy.hpp"
#include "support/invariant.hpp"

namespace volta::exec {

void CtaRunner::exec_tensor_store(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  const uint32_t rank = in.groups[0];
  VOLTA_ASSERT(rank >= 1 && rank <= 5 && in.srcs.size() == 1 + rank,
               "lowering gives a tensor store its map and one coordinate per dimension");
  VOLTA_ASSERT(wgmma_ != nullptr, "a program with tensor stores tracks unfenced shared writes");
  if (bulk_.empty())
    bulk_.resize(threads_);
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    const auto box = tensor_box_operands(in, t);
    const auto src = box ? address_of(in.mem[0], t) : std::nullopt;
    if (!src)
      return;
    auto planned = plan_tensor_store(prog_, ctx_.config, box->map,
                                     std::span<const int32_t>(box->coords.data(), rank), *src);
    if (auto* why = std::get_if<std::string>(&planned)) {
      fail_unsupported(in, t, *why);
      return;
    }
    const TensorCopyPlan& plan = std::get<TensorCopyPlan>(planned);
    const uint32_t eb = plan.box.element_bytes;
    VOLTA_ASSERT(eb >= 1 && eb <= 8, "tma_box's element sizes are 1 to 8 bytes");
    BulkStore store;
    store.pc = current_pc_;
    // Every element of the box is read from shared memory (the in-bounds ones are stored; the
    // hardware may read the others too), so all of it is checked as the store's source.
    for (const TmaBoxElement& e : plan.box.elements) {
      if (!async_proxy_read_ok(in, e.shared_address, eb, t, "the tensor store"))
        return;
      const ByteCell* from = access(Space::Shared, e.shared_address, eb, eb, t, AccessKind::Read);
      if (from == nullptr || failed_)
        return;
      std::array<ByteCell, 8> bytes{};
      std::copy(from, from + eb, bytes.begin());
      if (store_source_readers_.empty())
        store_source_readers_.assign(shared_size_, 0);
      for (uint32_t i = 0; i < eb; ++i) {
        uint16_t& readers = store_source_readers_[e.shared_address + i];
        if (readers == UINT16_MAX) {
          fail_unsupported(in, t, "reads a shared byte that 65535 tensor stores in flight read");
          return;
        }
        if (readers++ == 0)
          ++store_source_bytes_;
        store.source.emplace_back(e.shared_address + i, bytes[i]);
      }
      if (!e.global_offset)
        continue; // out of the global dims: not stored
      const uint64_t global = plan.global_base + *e.global_offset;
      shadow_values_ = StoredElements{};
      in_tensor_store_ = true;
      ByteCell* to = access(Space::Global, global, eb, eb, t, AccessKind::Write, true);
      in_tensor_store_ = false;
      if (to == nullptr || failed_)
        return;
      for (uint32_t i = 0; i < eb; ++i) {
        to[i].node = bytes[i].node;
        to[i].byte = bytes[i].byte;
        to[i].pos = bytes[i].pos;
        to[i].stored_as = bytes[i].stored_as;
        to[i].written = kWrittenByStore | kWrittenByTensorStore;
      }
    }
    bulk_[t].stores.push_back(std::move(store));
  }
}

void CtaRunner::exec_bulk_group(const Inst& in, uint32_t w, uint32_t mask) {
  const uint32_t base = w * 32;
  for (uint32_t m = mask; m != 0; m &= m - 1) {
    const uint32_t t = base + std::countr_zero(m);
    if (bulk_.empty())
      return; // no tensor store issued yet: nothing to commit or wait for
    BulkGroups& g = bulk_[t];
    if (in.op == XOp::BulkCommit) {
      ++g.committed;
      for (BulkStore& s : g.stores) {
        if (s.group < 0)
          s.group = g.committed;
      }
      continue;
    }
    VOLTA_ASSERT(in.op == XOp::BulkWait && !in.srcs.empty() && in.srcs[0].kind == OpKind::Imm,
                 "lowering gives cp.async.bulk.wait_group its group count");
    if (!retire_bulk_stores(in, t, static_cast<uint32_t>(in.srcs[0].imm)))
      return;
  }
}

// Retires the stores of every group of thread t but the `keep` most recent: their source bytes,
// read again now, must be what the issue read.
bool CtaRunner::retire_bulk_stores(const Inst& in, uint32_t t, uint32_t keep) {
  BulkGroups& g = bulk_[t];
  const int64_t last = g.committed - static_cast<int64_t>(keep);
  std::deque<BulkStore> pending;
  for (BulkStore& s : g.stores) {
    if (s.group < 0 || s.group > last) {
      pending.push_back(std::move(s));
      continue;
    }
    const Inst& issued = prog_.insts[s.pc];
    for (const auto& [address, was] : s.source) {
      VOLTA_ASSERT(store_source_readers_[address] > 0, "an issued store counts its source bytes");
      if (--store_source_readers_[address] == 0)
        --store_source_bytes_;
    }
    for (const auto& [address, was] : s.source) {
      const ByteCell* now = access(Space::Shared, address, 1, 1, t, AccessKind::Read);
      if (now == nullptr || failed_)
        return false;
      if (now->node != was.node || now->byte != was.byte || now->pos != was.pos) {
        fail(Verdict::DataRace, "data race",
             fmt::format("shared byte {:#x}, a source byte of the tensor store '{}' (PTX line "
                         "{}), is written before '{}' (PTX line {}) retires it (the async proxy "
                         "reads it meanwhile)",
                         address, issued.text, issued.line, in.text, in.line),
             t);
        return false;
      }
    }
  }
  g.stores = std::move(pending);
  return true;
}

bool CtaRunner::tensor_store_source_race(uint64_t address, uint32_t size, uint32_t t) {
  for (uint64_t a = address; a < address + size; ++a) {
    if (store_source_readers_[a] == 0)
      continue;
    // The store in flight that reads the byte (the first found).
    uint32_t u = 0, store_pc = 0;
    for (uint32_t v = 0; v < bulk_.size() && store_pc == 0; ++v) {
      for (const BulkStore& s : bulk_[v].stores) {
        for (const auto& [source, was] : s.source) {
          if (source == a) {
            u = v;
            store_pc = s.pc;
          }
        }
      }
    }
    const Inst& in = prog_.insts[current_pc_];
    return report_shared_race(
        "tensor-store-source race", a, t, u, store_pc,
        fmt::format("data race on shared {}: write by thread {} ('{}', PTX line {}) while the "
                    "tensor store of thread {} (PTX line {}) may still read it through the async "
                    "proxy: a cp.async.bulk.wait_group.read of thread {} retires it, and only a "
                    "barrier after that orders this write",
                    describe_address(Space::Shared, a), t, in.text, in.line, u,
                    prog_.insts[store_pc].line, u));
  }
  return false;
}

bool CtaRunner::tensor_store_conflict(const ByteCell* cells, uint64_t address, uint32_t size,
                                      uint32_t t) {
  // A tensor store's write may follow nothing a generic store wrote; any other access may not
  // touch what a tensor store wrote.
  const uint8_t conflicting =
      in_tensor_store_ ? kWrittenByStore | kWrittenByTensorStore : kWrittenByTensorStore;
  for (uint32_t i = 0; i < size; ++i) {
    if ((cells[i].written & conflicting) == 0)
      continue;
    const std::string where = describe_address(Space::Global, address + i);
    fail_unsupported(
        prog_.insts[current_pc_], t,
        in_tensor_store_
            ? fmt::format("writes global {} through the async proxy, which the kernel also "
                          "stores to otherwise (another tensor store or a generic store): the "
                          "order of the two is not modelled",
                          where)
            : fmt::format("accesses global {}, which a tensor store writes through the async "
                          "proxy: the order of a generic access and a tensor store's write "
                          "(fence.proxy.async, cp.async.bulk.wait_group) is not modelled",
                          where));
    return false;
  }
  return true;
}

bool CtaRunner::bulk_end_check() {
  if (failed_)
    return false;
  for (uint32_t t = 0; t < bulk_.size(); ++t) {
    if (bulk_[t].stores.empty())
      continue;
    const BulkStore& s = bulk_[t].stores.front();
    fail_unsupported(prog_.insts[s.pc], t,
                     "is not retired by a cp.async.bulk.wait_group(.read) of its thread before "
                     "the CTA ends: the shared memory it reads is released meanwhile (not "
                     "modelled)");
    return false;
  }
  return true;
}

} // namespace volta::exec
