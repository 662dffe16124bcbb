// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace layerbench::util {

// The low-level layers return this instead of throwing; higher layers turn a failure into an Error
// with the context (file, pointer) that only they know.
template<typename T>
class Expected
{
public:
  Expected(T value) : m_state(std::move(value)) {}
  static Expected failure(std::string message)
  {
    Expected result{Failure{std::move(message)}};
    return result;
  }

  bool has_value() const { return m_state.index() == 0; }
  explicit operator bool() const { return has_value(); }
  const T& value() const& { return std::get<0>(m_state); }
  T&& value() && { return std::get<0>(std::move(m_state)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<1>(m_state).message; }

private:
  struct Failure
  {
    std::string message;
  };
  explicit Expected(Failure failure) : m_state(std::move(failure)) {}
  std::variant<T, Failure> m_state;
};

} // namespace layerbench::util
