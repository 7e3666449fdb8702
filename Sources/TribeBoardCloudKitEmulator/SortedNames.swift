/// Record names kept in order, as a list of short sorted chunks: insert, remove and "the first
/// name after X" cost O(log n + chunk), so a query's page costs what it returns rather than a sort
/// of the whole zone (Apple's service pages through an index; a sorted array would make every
/// insert move the whole zone).
struct SortedNames {
    private static let maxChunk = 512
    /// Non-empty chunks, each sorted, every name of a chunk below every name of the next.
    private var chunks: [[String]] = []

    private(set) var count = 0

    init() {}

    /// Loading a zone: one sort rather than an insert each.
    init(_ names: some Sequence<String>) {
        let sorted = Set(names).sorted()
        count = sorted.count
        chunks = stride(from: 0, to: sorted.count, by: Self.maxChunk).map { Array(sorted[$0..<min($0 + Self.maxChunk, sorted.count)]) }
    }

    /// The first chunk whose last name is >= name (chunks.count when none).
    private func chunkIndex(for name: String) -> Int {
        var low = 0, high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if let last = chunks[mid].last, last < name { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private static func position(of name: String, in chunk: [String]) -> Int {
        var low = 0, high = chunk.count
        while low < high {
            let mid = (low + high) / 2
            if chunk[mid] < name { low = mid + 1 } else { high = mid }
        }
        return low
    }

    mutating func insert(_ name: String) {
        guard !chunks.isEmpty else {
            chunks = [[name]]
            count = 1
            return
        }
        let index = min(chunkIndex(for: name), chunks.count - 1)
        let at = Self.position(of: name, in: chunks[index])
        if at < chunks[index].count, chunks[index][at] == name { return }
        chunks[index].insert(name, at: at)
        count += 1
        if chunks[index].count > 2 * Self.maxChunk {
            let upper = Array(chunks[index][Self.maxChunk...])
            chunks[index].removeSubrange(Self.maxChunk...)
            chunks.insert(upper, at: index + 1)
        }
    }

    mutating func remove(_ name: String) {
        let index = chunkIndex(for: name)
        guard index < chunks.count else { return }
        let at = Self.position(of: name, in: chunks[index])
        guard at < chunks[index].count, chunks[index][at] == name else { return }
        chunks[index].remove(at: at)
        count -= 1
        if chunks[index].isEmpty { chunks.remove(at: index) }
    }

    /// Names in order, from the first one above `after` (from the start when nil).
    func names(after: String?) -> some Sequence<String> {
        var chunk = 0, offset = 0
        if let after {
            chunk = chunkIndex(for: after)
            if chunk < chunks.count {
                offset = Self.position(of: after, in: chunks[chunk])
                if offset < chunks[chunk].count, chunks[chunk][offset] == after { offset += 1 }
            }
        }
        let chunks = self.chunks
        return sequence(state: (chunk, offset)) { state -> String? in
            while state.0 < chunks.count {
                if state.1 < chunks[state.0].count {
                    defer { state.1 += 1 }
                    return chunks[state.0][state.1]
                }
                state = (state.0 + 1, 0)
            }
            return nil
        }
    }
}
