/* SPDX-License-Identifier: Apache-2.0 */
/*!
 * \file tvm/ffi/container/seq_base.h
 * \brief SeqBaseObj, the element storage ArrayObj and ListObj share, and the
 *        Any conversion rules of Array<T> and List<T>.
 *
 * Layout (C++ ABI): SeqBaseObj = Object (24 bytes) + TVMFFISeqCell
 * { data, size, capacity, data_deleter } (32 bytes); the elements are owning
 * TVMFFIAny values at `data`.  SeqBaseObj has no type index of its own.
 */
#ifndef TVM_FFI_CONTAINER_SEQ_BASE_H_
#define TVM_FFI_CONTAINER_SEQ_BASE_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/container/container_detail.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/object.h>

#include <algorithm>
#include <iterator>
#include <new>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

namespace tvm {
namespace ffi {

namespace detail {
/*!
 * \brief The throws of element access, out of line and cold, so that the
 *        checked reads themselves stay small enough to inline into loops.
 */
[[noreturn]] [[gnu::cold]] TVM_FFI_NO_INLINE inline void ThrowSeqIndexOutOfBounds(int64_t i,
                                                                              int64_t size) {
  TVM_FFI_THROW(IndexError) << "Index " << i << " out of bounds " << size;
  TVM_FFI_UNREACHABLE();
}
/*! \brief IndexError `cannot index a null <kind>` (kind: "array", "list"). */
[[noreturn]] [[gnu::cold]] TVM_FFI_NO_INLINE inline void ThrowIndexNullSeq(const char* kind) {
  TVM_FFI_THROW(IndexError) << "cannot index a null " << kind;
  TVM_FFI_UNREACHABLE();
}
}  // namespace detail

/*!
 * \brief Elements of a sequence object: `size` constructed Any values at
 *        `data`, room for `capacity`.
 *
 * The destructor destroys the elements, then hands `data` to `data_deleter`
 * when there is one (a separately allocated buffer).  Mutating members
 * never grow the buffer: callers ensure the capacity first.
 */
class SeqBaseObj : public Object, protected TVMFFISeqCell {
 public:
  SeqBaseObj() : TVMFFISeqCell{nullptr, 0, 0, nullptr} {}
  ~SeqBaseObj() {
    Any* elems = MutableBegin();
    for (int64_t i = 0; i < TVMFFISeqCell::size; ++i) elems[i].~Any();
    if (data_deleter != nullptr) data_deleter(data);
  }

  size_t size() const { return static_cast<size_t>(TVMFFISeqCell::size); }
  size_t capacity() const { return static_cast<size_t>(TVMFFISeqCell::capacity); }
  bool empty() const { return TVMFFISeqCell::size == 0; }

  /*! \brief Element i; IndexError `Index <i> out of bounds <size>` outside [0, size). */
  const Any& at(int64_t i) const { return (*this)[i]; }
  const Any& operator[](int64_t i) const {
    CheckIndex(i);
    return begin()[i];
  }
  /*! \brief The first element; IndexError on an empty sequence. */
  const Any& front() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "front() on empty sequence";
    return begin()[0];
  }
  /*! \brief The last element; IndexError on an empty sequence. */
  const Any& back() const {
    if (empty()) TVM_FFI_THROW(IndexError) << "back() on empty sequence";
    return begin()[TVMFFISeqCell::size - 1];
  }
  const Any* begin() const { return static_cast<const Any*>(data); }
  const Any* end() const { return begin() + TVMFFISeqCell::size; }

  /*! \brief Destroys every element, last first (the capacity stays). */
  void clear() { ShrinkBy(TVMFFISeqCell::size); }

  /*! \brief Replaces element i (IndexError as at()). */
  void SetItem(int64_t i, Any item) {
    CheckIndex(i);
    SetItemAfterCheck(i, std::move(item));
  }
  /*! \brief Replaces element i, which the caller knows is in range. */
  TVM_FFI_INLINE void SetItemAfterCheck(int64_t i, Any item) {
    MutableBegin()[i] = std::move(item);
  }

  /*!
   * \brief Constructs the slots from `idx` on with copies of [first, last).
   *
   * IMPORTANT: the slots must be raw memory already counted in `size`.
   */
  template <typename IterType>
  SeqBaseObj* InitRange(int64_t idx, IterType first, IterType last) {
    Any* slot = MutableBegin() + idx;
    for (; first != last; ++first, ++slot) {
      Any value = *first;
      new (slot) Any(std::move(value));
    }
    return this;
  }

  /*! \brief Removes the last element; IndexError when empty. */
  void pop_back() {
    if (empty()) TVM_FFI_THROW(IndexError) << "pop_back on empty sequence";
    ShrinkBy(1);
  }
  /*! \brief Removes element idx (IndexError as at()). */
  void erase(int64_t idx) {
    CheckIndex(idx);
    MoveElementsLeft(idx, idx + 1, TVMFFISeqCell::size);
    ShrinkBy(1);
  }
  /*! \brief Removes [first, last); an empty range is a no-op, a bad one an IndexError. */
  void erase(int64_t first, int64_t last) {
    if (first == last) return;
    if (first < 0 || first > last || last > TVMFFISeqCell::size) {
      TVM_FFI_THROW(IndexError) << "Erase range [" << first << ", " << last << ") out of bounds "
                                << TVMFFISeqCell::size;
    }
    MoveElementsLeft(first, last, TVMFFISeqCell::size);
    ShrinkBy(last - first);
  }
  /*! \brief Inserts before idx, 0 <= idx <= size (capacity must allow one more). */
  void insert(int64_t idx, Any item) {
    int64_t old_size = CheckInsertIndex(idx);
    EnlargeBy(1);
    MoveElementsRight(idx + 1, idx, old_size);
    MutableBegin()[idx] = std::move(item);
  }
  /*! \brief Inserts copies of [first, last) before idx (capacity must allow them). */
  template <typename IterType>
  void insert(int64_t idx, IterType first, IterType last) {
    int64_t count = static_cast<int64_t>(std::distance(first, last));
    if (count == 0) return;
    int64_t old_size = CheckInsertIndex(idx);
    EnlargeBy(count);
    MoveElementsRight(idx + count, idx, old_size);
    for (Any* slot = MutableBegin() + idx; first != last; ++first, ++slot) *slot = Any(*first);
  }
  /*! \brief Reverses the elements in place. */
  void Reverse() { std::reverse(MutableBegin(), MutableEnd()); }
  /*! \brief Grows with None or shrinks to n elements; ValueError when n < 0. */
  void resize(int64_t n) {
    if (n < 0) TVM_FFI_THROW(ValueError) << "Cannot resize to negative size";
    if (n > TVMFFISeqCell::size) EnlargeBy(n - TVMFFISeqCell::size);
    if (n < TVMFFISeqCell::size) ShrinkBy(TVMFFISeqCell::size - n);
  }

 protected:
  /// \cond Doxygen_Suppress
  Any* MutableBegin() const { return static_cast<Any*>(data); }
  Any* MutableEnd() const { return MutableBegin() + TVMFFISeqCell::size; }
  template <typename... Args>
  void EmplaceInit(size_t idx, Args&&... args) {
    new (MutableBegin() + idx) Any(std::forward<Args>(args)...);
  }
  // Each new slot is counted only once constructed, so a throwing copy
  // leaves a consistent sequence.
  void EnlargeBy(int64_t delta, const Any& fill = Any()) {
    for (; delta > 0; --delta) {
      new (MutableEnd()) Any(fill);
      ++TVMFFISeqCell::size;
    }
  }
  void ShrinkBy(int64_t delta) {
    for (; delta > 0; --delta) {
      --TVMFFISeqCell::size;
      MutableEnd()->~Any();
    }
  }
  // Move [src_begin, src_end) to start at dst: towards the front (Left) or
  // the back (Right); each picks the copy direction that overlap allows.
  void MoveElementsRight(int64_t dst, int64_t src_begin, int64_t src_end) {
    Any* const first = MutableBegin() + src_begin;
    Any* const last = MutableBegin() + src_end;
    std::move_backward(first, last, MutableBegin() + dst + (src_end - src_begin));
  }
  void MoveElementsLeft(int64_t dst, int64_t src_begin, int64_t src_end) {
    Any* const first = MutableBegin() + src_begin;
    Any* const last = MutableBegin() + src_end;
    std::move(first, last, MutableBegin() + dst);
  }
  /// \endcond

 private:
  TVM_FFI_INLINE void CheckIndex(int64_t i) const {
    // One unsigned comparison covers i < 0 too.
    if (TVM_FFI_PREDICT_FALSE(static_cast<uint64_t>(i) >=
                              static_cast<uint64_t>(TVMFFISeqCell::size))) {
      detail::ThrowSeqIndexOutOfBounds(i, TVMFFISeqCell::size);
    }
  }
  int64_t CheckInsertIndex(int64_t idx) const {
    int64_t n = TVMFFISeqCell::size;
    if (idx < 0 || idx > n) {
      TVM_FFI_THROW(IndexError) << "Index " << idx << " out of bounds [0, " << n << "]";
    }
    return n;
  }
};

/*!
 * \brief The Any conversion of a sequence reference type SeqRef whose
 *        elements are T (Array<T> or List<T>).
 *
 * `Derived` names kPrimaryTypeIndex (the object a SeqRef holds),
 * kOtherTypeIndex (the other sequence kind, accepted by copying) and
 * kTypeName (for messages).  A value of the primary kind whose elements are
 * all exactly T is shared; anything else convertible is copied element by
 * element, converting each.
 */
template <typename Derived, typename SeqRef, typename T>
struct SeqTypeTraitsBase : public ObjectRefTypeTraitsBase<SeqRef> {
  using Base = ObjectRefTypeTraitsBase<SeqRef>;
  using Base::CopyFromAnyViewAfterCheck;

  // Exactly a SeqRef: the primary kind, every element already a T.
  TVM_FFI_INLINE static bool CheckAnyStrict(const TVMFFIAny* src) {
    return src->type_index == Derived::kPrimaryTypeIndex && AllElementsExact(Cell(src));
  }

  TVM_FFI_INLINE static std::string GetMismatchTypeInfo(const TVMFFIAny* src) {
    if (!IsSeq(src)) return TypeTraitsBase::GetMismatchTypeInfo(src);
    if constexpr (!std::is_same_v<T, Any>) {
      const SeqBaseObj* seq = Cell(src);
      for (size_t i = 0; i < seq->size(); ++i) {
        const Any& elem = seq->begin()[i];
        if (detail::AnyUnsafe::CheckAnyStrict<T>(elem) || elem.try_cast<T>()) continue;
        return std::string(Derived::kTypeName) + "[index " + std::to_string(i) + ": " +
               detail::AnyUnsafe::GetMismatchTypeInfo<T>(elem) + "]";
      }
    }
    TVM_FFI_THROW(InternalError) << "GetMismatchTypeInfo on a convertible "
                                 << Derived::kTypeName;
    TVM_FFI_UNREACHABLE();
  }

  TVM_FFI_INLINE static std::optional<SeqRef> TryCastFromAnyView(const TVMFFIAny* src) {
    if (!IsSeq(src)) return std::nullopt;
    const SeqBaseObj* seq = Cell(src);
    if (src->type_index == Derived::kPrimaryTypeIndex && AllElementsExact(seq)) {
      return CopyFromAnyViewAfterCheck(src);
    }
    SeqRef out;
    out.reserve(static_cast<int64_t>(seq->size()));
    for (const Any& elem : *seq) {
      if constexpr (std::is_same_v<T, Any>) {
        out.push_back(elem);
      } else {
        std::optional<T> converted = elem.try_cast<T>();
        if (!converted.has_value()) return std::nullopt;
        out.push_back(*std::move(converted));
      }
    }
    return out;
  }

  /*! \brief "Array<T>" (or List): the type in messages. */
  TVM_FFI_INLINE static std::string TypeStr() {
    std::string text(Derived::kTypeName);
    return text.append("<").append(detail::Type2Str<T>::v()).append(">");
  }

 private:
  // Only the derived traits (Array's, List's) are made.
  friend Derived;
  SeqTypeTraitsBase() = default;

  static const SeqBaseObj* Cell(const TVMFFIAny* src) {
    return reinterpret_cast<const SeqBaseObj*>(src->v_obj);
  }
  static bool IsSeq(const TVMFFIAny* src) {
    return src->type_index == Derived::kPrimaryTypeIndex ||
           src->type_index == Derived::kOtherTypeIndex;
  }
  static bool AllElementsExact(const SeqBaseObj* seq) {
    if constexpr (std::is_same_v<T, Any>) {
      return true;
    } else {
      return std::all_of(seq->begin(), seq->end(), [](const Any& elem) {
        return detail::AnyUnsafe::CheckAnyStrict<T>(elem);
      });
    }
  }
};

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_CONTAINER_SEQ_BASE_H_
