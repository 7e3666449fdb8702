/// Follows a query's continuation markers and stops a server that never ends: a marker it has
/// already returned would loop forever (a server answering the same page again), and no container
/// of TribeBoard's holds more than `maxPages` pages (200 records each) of one type.
package struct ContinuationGuard {
    static let maxPages = 100_000
    let recordType: String
    private var seen: Set<String> = []
    private var pages = 0

    package init(recordType: String) { self.recordType = recordType }

    /// The marker to ask with next, nil at the end; throws when the pages would not end.
    package mutating func next(after marker: String?) throws(CloudKitError) -> String? {
        pages += 1
        guard let marker else { return nil }
        guard seen.insert(marker).inserted else {
            throw .unexpectedResponse(
                httpStatus: 200,
                detail: "records/query on \(recordType) returned a "
                    + "continuation marker it had returned before (page \(pages)): its pages would never end"
            )
        }
        guard pages < Self.maxPages else {
            throw .unexpectedResponse(
                httpStatus: 200,
                detail:
                    "records/query on \(recordType) went on past \(Self.maxPages) pages; stopped")
        }
        return marker
    }
}
