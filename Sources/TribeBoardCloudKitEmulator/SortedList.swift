/// Values kept in order, as a list of short sorted chunks: insert, remove and "the first value
/// after X" cost O(log n + chunk), so a query's page costs what it returns rather than a sort of
/// the whole zone (Apple's service pages through an index; a sorted array would make every insert
/// move the whole zone). Holds a type's record names, and each field's index (`IndexKey`).
struct SortedList<Element: Comparable> {
    private static var maxChunk: Int { 512 }
    /// Non-empty chunks, each sorted, every value of a chunk below every value of the next.
    private var chunks: [[Element]] = []

    private(set) var count = 0

    init() {}

    /// Loading a zone: one sort rather than an insert each (values given twice are kept once).
    init(_ values: some Sequence<Element>) {
        var sorted = values.sorted()
        var kept = 0
        for index in sorted.indices where kept == 0 || sorted[kept - 1] < sorted[index] {
            sorted.swapAt(kept, index)
            kept += 1
        }
        sorted.removeSubrange(kept...)
        count = sorted.count
        chunks = stride(from: 0, to: sorted.count, by: Self.maxChunk).map {
            Array(sorted[$0..<min($0 + Self.maxChunk, sorted.count)])
        }
    }

    /// Where the first value for which `isBefore` is false stands: its chunk and its offset there
    /// (`isBefore` holds for a prefix of the list).
    private func boundary(_ isBefore: (Element) -> Bool) -> (chunk: Int, offset: Int) {
        var low = 0, high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if let last = chunks[mid].last, isBefore(last) { low = mid + 1 } else { high = mid }
        }
        guard low < chunks.count else { return (low, 0) }
        let chunk = chunks[low]
        var first = 0, past = chunk.count
        while first < past {
            let mid = (first + past) / 2
            if isBefore(chunk[mid]) { first = mid + 1 } else { past = mid }
        }
        return (low, first)
    }

    mutating func insert(_ value: Element) {
        guard !chunks.isEmpty else {
            chunks = [[value]]
            count = 1
            return
        }
        var (index, at) = boundary { $0 < value }
        if index == chunks.count { (index, at) = (index - 1, chunks[index - 1].count) }
        if at < chunks[index].count, chunks[index][at] == value { return }
        chunks[index].insert(value, at: at)
        count += 1
        if chunks[index].count > 2 * Self.maxChunk {
            let upper = Array(chunks[index][Self.maxChunk...])
            chunks[index].removeSubrange(Self.maxChunk...)
            chunks.insert(upper, at: index + 1)
        }
    }

    mutating func remove(_ value: Element) {
        let (index, at) = boundary { $0 < value }
        guard index < chunks.count, at < chunks[index].count, chunks[index][at] == value else {
            return
        }
        chunks[index].remove(at: at)
        count -= 1
        if chunks[index].isEmpty { chunks.remove(at: index) }
    }

    /// Values in order, from the first one above `after` (from the start when nil).
    func values(after: Element?) -> some Sequence<Element> {
        guard let after else { return values(from: (0, 0)) }
        return values(from: boundary { $0 <= after })
    }

    /// Values in order, from the first one not below `from`.
    func values(from: Element) -> some Sequence<Element> {
        values(from: boundary { $0 < from })
    }

    /// Values in order, from the first one above `after`, leaving out those in any of `gaps`
    /// (sorted, apart): each gap is stepped over with one search, its values never read.
    func values(after: Element?, outside gaps: [Range<Element>]) -> some Sequence<Element> {
        let start: (chunk: Int, offset: Int) =
            after.map { after in boundary { $0 <= after } } ?? (0, 0)
        return sequence(state: (position: start, gap: 0)) { state -> Element? in
            while state.position.chunk < chunks.count {
                let chunk = chunks[state.position.chunk]
                guard state.position.offset < chunk.count else {
                    state.position = (state.position.chunk + 1, 0)
                    continue
                }
                let value = chunk[state.position.offset]
                while state.gap < gaps.count, gaps[state.gap].upperBound <= value { state.gap += 1 }
                if state.gap < gaps.count, gaps[state.gap].contains(value) {
                    let end = gaps[state.gap].upperBound
                    state.position = boundary { $0 < end }
                    continue
                }
                state.position.offset += 1
                return value
            }
            return nil
        }
    }

    private func values(from start: (chunk: Int, offset: Int)) -> some Sequence<Element> {
        let chunks = self.chunks
        return sequence(state: start) { state -> Element? in
            while state.chunk < chunks.count {
                if state.offset < chunks[state.chunk].count {
                    defer { state.offset += 1 }
                    return chunks[state.chunk][state.offset]
                }
                state = (state.chunk + 1, 0)
            }
            return nil
        }
    }
}

/// The database is copied to a background save (`EmulatorState`), indexes included.
extension SortedList: Sendable where Element: Sendable {}
