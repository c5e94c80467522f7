// One table per vocabulary: each enum value with the id it has in JSON, links, the CLI and
// string keys. Readers, writers, the Markdown page, the CLI and error messages all go through
// these tables, so an id is spelled in exactly one place.
#ifndef VRAMCALC_VOCAB_H_
#define VRAMCALC_VOCAB_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vramcalc {

template <typename E>
struct Named {
  E value;
  std::string_view id;
};

// A table of entries, each with a `value` of enum type E and its `id`; an entry may carry
// more columns (LayerKindInfo's rule, for one).
template <typename E, typename Entry = Named<E>>
class Vocabulary {
 public:
  template <std::size_t N>
  constexpr Vocabulary(const Entry (&entries)[N]) : entries_(entries) {}  // NOLINT: implicit

  // The id of `value`; empty for a value the table lacks (a programming error).
  constexpr std::string_view Id(E value) const {
    const Entry* entry = EntryOf(value);
    return entry ? entry->id : std::string_view();
  }
  constexpr const Entry* EntryOf(E value) const {
    for (const Entry& entry : entries_) {
      if (entry.value == value) return &entry;
    }
    return nullptr;
  }
  constexpr std::optional<E> Find(std::string_view id) const {
    for (const Entry& entry : entries_) {
      if (entry.id == id) return entry.value;
    }
    return std::nullopt;
  }
  constexpr std::span<const Entry> entries() const { return entries_; }

 private:
  std::span<const Entry> entries_;
};

// "a", "b" or "c" (or "a, b and c" with `last` "and" and `quote` false): a list of ids, for
// messages and help texts.
std::string JoinList(std::span<const std::string_view> ids, std::string_view last = "or", bool quote = true);

// JoinList of the ids `id_of` gives each of `items`.
template <typename Range, typename IdOf>
std::string JoinIds(const Range& items, IdOf id_of, std::string_view last = "or", bool quote = true) {
  std::vector<std::string_view> ids;
  for (const auto& item : items) ids.push_back(id_of(item));
  return JoinList(ids, last, quote);
}

template <typename E, typename Entry>
std::string JoinIds(Vocabulary<E, Entry> vocabulary, std::string_view last = "or", bool quote = true) {
  std::vector<std::string_view> ids;
  for (const Entry& entry : vocabulary.entries()) ids.push_back(entry.id);
  return JoinList(ids, last, quote);
}

}  // namespace vramcalc

#endif  // VRAMCALC_VOCAB_H_
