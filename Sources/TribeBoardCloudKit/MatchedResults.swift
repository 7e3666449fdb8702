/// Per-record results matched to the records asked about by record name, never by position: a
/// server that reorders its answer must not mark the wrong record uploaded. Whatever does not
/// match one-to-one (a result for a record not asked about, a missing result, two results for one
/// record, a result without a name) is left out and described, so the run can say why it stopped.
package struct MatchedResults: Sendable {
    /// Records with exactly one result.
    package private(set) var byName: [String: CloudKitRecordResult] = [:]
    /// What did not match, in a sentence; nil when every record has exactly one result.
    package private(set) var problem: String?

    package init(asked names: [String], results: [CloudKitRecordResult], operation: String) {
        let asked = Set(names)
        var seen: [String: Int] = [:]
        var unasked: [String] = []
        var unnamed = 0
        for result in results {
            guard let name = result.answeredName else {
                unnamed += 1
                continue
            }
            guard asked.contains(name) else {
                unasked.append(name)
                continue
            }
            seen[name, default: 0] += 1
            byName[name] = result
        }
        let repeated = names.filter { (seen[$0] ?? 0) > 1 }
        for name in repeated { byName[name] = nil }
        let missing = names.filter { seen[$0] == nil }
        var parts: [String] = []
        if !missing.isEmpty { parts.append("no result for \(Self.list(missing))") }
        if !repeated.isEmpty { parts.append("several results for \(Self.list(repeated))") }
        if !unasked.isEmpty {
            parts.append("a result for \(Self.list(unasked)), not in the request")
        }
        if unnamed > 0 {
            parts.append("\(unnamed) result\(unnamed == 1 ? "" : "s") without a record name")
        }
        guard !parts.isEmpty else { return }
        problem = "\(operation) answered \(results.count) result\(results.count == 1 ? "" : "s") "
            + "for \(names.count) record\(names.count == 1 ? "" : "s"): "
            + parts.joined(separator: "; ") + "; those records stay pending"
    }

    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(5).joined(separator: ", ")
        return names.count > 5 ? "\(shown) and \(names.count - 5) more" : shown
    }
}

extension CloudKitRecordResult {
    package var answeredName: String? {
        switch self {
        case .record(let record): return record.recordName
        case .failure(let error): return error.recordName
        }
    }
}
