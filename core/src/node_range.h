// A value in a flat array of nodes (json_dom.h, request_fields.h), and its children in order:
// `for (const Value child : value.Children())`. `Document::ValueAt(document, node)` is the value
// at a node, `Document::NodeAfter(document, node)` the node after that value and its children.
#ifndef VRAMCALC_SRC_NODE_RANGE_H_
#define VRAMCALC_SRC_NODE_RANGE_H_

#include <cstdint>

namespace vramcalc::internal {

// What a value is: a node of its document, or "absent" (false) when made by default.
template <typename Document>
class NodeHandle {
 public:
  explicit operator bool() const { return document_ != nullptr; }

 protected:
  NodeHandle() = default;
  NodeHandle(const Document* document, uint32_t node) : document_(document), node_(node) {}
  const Document* document_ = nullptr;
  uint32_t node_ = 0;
};

template <typename Document, typename Value>
class NodeRange {
 public:
  class Iterator {
   public:
    Iterator(const Document* document, uint32_t node) : document_(document), node_(node) {}
    Value operator*() const { return Document::ValueAt(document_, node_); }
    Iterator& operator++() {
      node_ = Document::NodeAfter(document_, node_);
      return *this;
    }
    bool operator!=(const Iterator& other) const { return node_ != other.node_; }

   private:
    const Document* document_;
    uint32_t node_;
  };

  // The nodes from `first` up to `last` (not included).
  NodeRange(const Document* document, uint32_t first, uint32_t last) : first_(document, first), last_(document, last) {}
  Iterator begin() const { return first_; }
  Iterator end() const { return last_; }

 private:
  Iterator first_, last_;
};

}  // namespace vramcalc::internal

#endif  // VRAMCALC_SRC_NODE_RANGE_H_
