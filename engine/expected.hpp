// A value, or the reason there is none: what a function that can fail on bad input returns,
// in place of an optional and a `std::string& error` out-parameter (C++23's std::expected, for
// the one error type the tool needs: a message for the user, located or not).
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "support/invariant.hpp"

namespace volta {

// The reason a value could not be made: a message as the user reads it ("--shard: expected
// I/N, got 3" or "m.json:4:7: error: ..."), without a trailing newline.
struct Unexpected {
  std::string message;
};

template <class T>
class Expected {
public:
  Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
  Expected(Unexpected why) : state_(std::in_place_index<1>, std::move(why.message)) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& operator*() & {
    VOLTA_ASSERT(has_value(), "the value of a failed Expected");
    return std::get<0>(state_);
  }
  const T& operator*() const& {
    VOLTA_ASSERT(has_value(), "the value of a failed Expected");
    return std::get<0>(state_);
  }
  T&& operator*() && {
    VOLTA_ASSERT(has_value(), "the value of a failed Expected");
    return std::get<0>(std::move(state_));
  }
  T* operator->() { return &**this; }
  const T* operator->() const { return &**this; }

  // Why there is no value; only for a failed Expected.
  const std::string& error() const {
    VOLTA_ASSERT(!has_value(), "the error of an Expected that holds a value");
    return std::get<1>(state_);
  }
  T value_or(T otherwise) const& { return has_value() ? std::get<0>(state_) : otherwise; }

private:
  std::variant<T, std::string> state_;
};

// What a function that fills its arguments returns: success, or why it failed.
template <>
class Expected<void> {
public:
  Expected() = default;
  Expected(Unexpected why) : error_(std::move(why.message)) {}

  bool has_value() const { return !error_.has_value(); }
  explicit operator bool() const { return has_value(); }
  const std::string& error() const {
    VOLTA_ASSERT(!has_value(), "the error of an Expected that succeeded");
    return *error_;
  }

private:
  std::optional<std::string> error_;
};

} // namespace volta
