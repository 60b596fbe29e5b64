/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/container_detail.h
 * \brief Pieces the container headers share: iterator adapters that convert
 *        each stored Any on dereference, and a few type predicates.
 */
#ifndef TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_
#define TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_

#include <iterator>
#include <sstream>
#include <string>
#include <type_traits>

#include <tvm/ffi/object.h>
#include <tvm/ffi/any.h>

namespace tvm {
namespace ffi {
namespace detail {

/*!
 * \brief Wraps an iterator `TIter`; reading through the wrapper hands back
 *        `Converter::convert(*it)`, a `Converter::ResultType` made on the spot.
 *
 * Both directions work.  Subtracting two wrappers is offered only when
 * `TIter` itself is random access.
 */
template <typename Converter, typename TIter>
class IterAdapter {
  using Base = std::iterator_traits<TIter>;
  using Item = typename Converter::ResultType;

 public:
  // The five member types std::iterator_traits looks for.
  using iterator_category = typename Base::iterator_category;
  using difference_type = typename Base::difference_type;
  using value_type = Item;
  using reference = const Item;
  using pointer = const Item*;

  explicit IterAdapter(TIter iter) : iter_(iter) {}

  reference operator*() const { return Converter::convert(*iter_); }
  IterAdapter& operator++() { return ++iter_, *this; }
  IterAdapter& operator--() { return --iter_, *this; }
  IterAdapter operator++(int) { return IterAdapter(iter_++); }
  IterAdapter operator--(int) { return IterAdapter(iter_--); }
  IterAdapter& operator+=(difference_type n) { return iter_ += n, *this; }
  IterAdapter& operator-=(difference_type n) { return iter_ -= n, *this; }
  IterAdapter operator+(difference_type n) const { return IterAdapter(iter_ + n); }
  IterAdapter operator-(difference_type n) const { return IterAdapter(iter_ - n); }
  template <typename Self = IterAdapter>
  std::enable_if_t<std::is_same_v<iterator_category, std::random_access_iterator_tag>,
                   typename Self::difference_type>
  operator-(const IterAdapter& other) const {
    return iter_ - other.iter_;
  }
  bool operator==(const IterAdapter& other) const { return iter_ == other.iter_; }
  bool operator!=(const IterAdapter& other) const { return iter_ != other.iter_; }

  /*! \brief The underlying iterator. */
  TIter base() const { return iter_; }

 private:
  TIter iter_;
};

/*! \brief IterAdapter walking backwards: `++` steps towards the front. */
template <typename Converter, typename TIter>
class ReverseIterAdapter {
 public:
  using difference_type = typename std::iterator_traits<TIter>::difference_type;
  using value_type = typename Converter::ResultType;
  using pointer = const typename Converter::ResultType*;
  using reference = const typename Converter::ResultType;
  using iterator_category = typename std::iterator_traits<TIter>::iterator_category;

  explicit ReverseIterAdapter(TIter iter) : iter_(iter) {}

  reference operator*() const { return Converter::convert(*iter_); }
  ReverseIterAdapter& operator++() { return --iter_, *this; }
  ReverseIterAdapter& operator--() { return ++iter_, *this; }
  ReverseIterAdapter operator++(int) { return ReverseIterAdapter(iter_--); }
  ReverseIterAdapter operator--(int) { return ReverseIterAdapter(iter_++); }
  ReverseIterAdapter operator+(difference_type n) const { return ReverseIterAdapter(iter_ - n); }
  template <typename Self = ReverseIterAdapter>
  std::enable_if_t<std::is_same_v<iterator_category, std::random_access_iterator_tag>,
                   typename Self::difference_type>
  operator-(const ReverseIterAdapter& other) const {
    return other.iter_ - iter_;
  }
  bool operator==(const ReverseIterAdapter& other) const { return iter_ == other.iter_; }
  bool operator!=(const ReverseIterAdapter& other) const { return iter_ != other.iter_; }

 private:
  TIter iter_;
};

/*! \brief Whether a container element of type T can be stored (Any, or a storable type). */
template <typename T>
inline constexpr bool storage_enabled_v = std::is_same_v<T, Any> || TypeTraits<T>::storage_enabled;

/*! \brief storage_enabled_v for every type of a pack. */
template <typename... T>
inline constexpr bool all_storage_enabled_v = (storage_enabled_v<T> && ...);

/*! \brief Whether every type of a pack is an ObjectRef. */
template <typename... T>
inline constexpr bool all_object_ref_v = (std::is_base_of_v<ObjectRef, T> && ...);

/*! \brief `name<A, B, ...>` spelled with each argument's Type2Str. */
template <typename... V>
std::string ContainerTypeStr(const char* name) {
  std::string out = std::string(name) + "<";
  bool first = true;
  auto add = [&out, &first](const std::string& arg) {
    if (!first) out += ", ";
    out += arg;
    first = false;
  };
  (add(Type2Str<V>::v()), ...);
  return out + ">";
}

}  // namespace detail
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_CONTAINER_DETAIL_H_
