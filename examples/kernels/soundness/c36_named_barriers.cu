// c36_* (36-named-barriers): producer/consumer named barriers, `bar.sync id, count` and
// `bar.arrive id, count`, as warp-specialized Hopper kernels (FlashAttention-3) use them. The
// verdicts are in examples/soundness/manifest.json; the launches there (1 CTA, a: input floats,
// out: output floats).
#define BAR_SYNC(id, n) asm volatile("bar.sync " #id ", " #n ";" ::: "memory")
#define BAR_ARRIVE(id, n) asm volatile("bar.arrive " #id ", " #n ";" ::: "memory")

// RACE_FREE, 64 threads: warp 0 writes s[] then arrives at barrier 1; warp 1 waits there, then
// reads: the arrive releases the writes, the completed bar.sync acquires them.
extern "C" __global__ void c36_producer_consumer(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i] * 2.0f;
    BAR_ARRIVE(1, 64);
  } else {
    BAR_SYNC(1, 64);
    out[i - 32] = s[i - 32] + 1.0f;
  }
}

// DATA_RACE, 64 threads: the producer writes s[] again after its bar.arrive, which releases only
// what came before it; the consumer's read is unordered with the second write.
extern "C" __global__ void c36_write_after_arrive(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i];
    BAR_ARRIVE(1, 64);
    s[i] = a[i + 32];
  } else {
    BAR_SYNC(1, 64);
    out[i - 32] = s[i - 32];
  }
}

// DATA_RACE, 64 threads: the consumer reads s[] before its bar.sync.
extern "C" __global__ void c36_read_before_sync(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i];
    BAR_ARRIVE(1, 64);
  } else {
    float x = s[i - 32];
    BAR_SYNC(1, 64);
    out[i - 32] = x;
  }
}

// RACE_FREE, 96 threads: two producer warps write the two halves of s[] and arrive at barrier 1
// with count 96; the consumer warp's bar.sync completes the phase and it reads both halves.
extern "C" __global__ void c36_two_producers(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[64];
  if (i < 64) {
    s[i] = a[i] * 3.0f;
    BAR_ARRIVE(1, 96);
  } else {
    BAR_SYNC(1, 96);
    out[i - 64] = s[i - 64] + s[i - 32];
  }
}

// DATA_RACE, 96 threads: two producers that only arrive are not ordered with each other: warp 1
// reads what warp 0 wrote before warp 0's arrive.
extern "C" __global__ void c36_producers_unordered(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i];
    BAR_ARRIVE(1, 96);
  } else if (i < 64) {
    out[i - 32] = s[i - 32];
    BAR_ARRIVE(1, 96);
  } else {
    BAR_SYNC(1, 96);
  }
}

// DEADLOCK, 96 threads: barrier 1 waits for 96 threads, but only warp 0 (bar.arrive) and warp 1
// (bar.sync) take part; warp 2 exits: the phase never completes and warp 1 waits for ever.
extern "C" __global__ void c36_count_never_completes(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i];
    BAR_ARRIVE(1, 96);
  } else if (i < 64) {
    BAR_SYNC(1, 96);
    out[i - 32] = s[i - 32];
  }
}

// BARRIER_DIVERGENCE, 128 threads: the producer arrives at barrier 1 with count 64, the consumer
// waits there with count 96: the threads of one barrier disagree on its count (undefined).
extern "C" __global__ void c36_count_mismatch(const float* a, float* out) {
  unsigned i = threadIdx.x;
  __shared__ float s[32];
  if (i < 32) {
    s[i] = a[i];
    BAR_ARRIVE(1, 64);
  } else if (i < 64) {
    BAR_SYNC(1, 96);
    out[i - 32] = s[i - 32];
  }
}

// RACE_FREE, 64 threads: a ping-pong over a double buffer between a consumer warp (warp 0) and a
// producer warp (warp 1), with two named barriers reused in every iteration: FULL (1: the
// producer arrives when it filled a buffer, the consumer waits) and EMPTY (2: the consumer
// arrives when it read one, the producer waits before refilling).
extern "C" __global__ void c36_ping_pong(const float* a, float* out) {
  unsigned i = threadIdx.x;
  unsigned l = i % 32;
  __shared__ float s[2][32];
  if (i >= 32) {
    for (int k = 0; k < 4; ++k) {
      if (k > 0)
        BAR_SYNC(2, 64);
      s[k & 1][l] = a[k * 32 + l] * 2.0f;
      BAR_ARRIVE(1, 64);
    }
  } else {
    for (int k = 0; k < 4; ++k) {
      BAR_SYNC(1, 64);
      out[k * 32 + l] = s[k & 1][l];
      if (k < 3)
        BAR_ARRIVE(2, 64);
    }
  }
}

// DATA_RACE, 64 threads: the ping-pong without its EMPTY barrier: the producer refills a buffer
// that the consumer may not have read yet.
extern "C" __global__ void c36_ping_pong_no_empty(const float* a, float* out) {
  unsigned i = threadIdx.x;
  unsigned l = i % 32;
  __shared__ float s[2][32];
  if (i >= 32) {
    for (int k = 0; k < 4; ++k) {
      s[k & 1][l] = a[k * 32 + l] * 2.0f;
      BAR_ARRIVE(1, 64);
    }
  } else {
    for (int k = 0; k < 4; ++k) {
      BAR_SYNC(1, 64);
      out[k * 32 + l] = s[k & 1][l];
    }
  }
}

// EQUIVALENT to c36_ping_pong (the reference of the pair), 32 threads: the same outputs, without
// warp specialization.
extern "C" __global__ void c36_plain_scale(const float* a, float* out) {
  unsigned l = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    out[k * 32 + l] = a[k * 32 + l] * 2.0f;
}
