import TribeBoardCloudKit

/// Where a whole-type read (`WholeTypeReader`) stands: the queries of each type, the page each
/// has reached, and what each family type's probe decided. It sends nothing: the reader performs
/// its work and hands it the answers, in whatever order they come.
struct ReadPlan: Sendable {
    enum Work: Sendable, Equatable {
        /// Doctor's code probe of a family type.
        case probe(type: Int)
        /// A page of one query (nil marker: its first).
        case page(stream: Int, marker: String?)
    }

    enum Answer: Sendable {
        case probed(type: Int, Result<Void, CloudKitError>)
        case page(stream: Int, Result<CloudKitQueryPage, CloudKitError>)
    }

    /// What an answer lets the reader hand over: pages of records, and the types now read whole.
    struct Handed {
        var pages: [[CloudKitRecordResult]] = []
        var finished: [String] = []
    }

    private enum TypeState {
        /// A family type waiting for its probe and the remainder query's first page.
        case deciding(probe: Result<Void, CloudKitError>?, remainder: Result<CloudKitQueryPage, CloudKitError>?)
        case reading
        case skipped
    }

    private struct TypeRead {
        let name: String
        var state: TypeState
        /// Queries of the type not read to their end.
        var open = 0
    }

    private struct Stream {
        let type: Int
        let filters: [CloudKitFilter]?
        var pages: ContinuationGuard
        var answered = false
        /// False once its type was skipped or is read otherwise: its answers are dropped.
        var live = true
    }

    private var types: [TypeRead] = []
    private var streams: [Stream] = []
    /// Pages to ask for, first first: a query's next page goes in front, so that the queries
    /// already started (a long single query above all) keep their place while new ones wait.
    private var work: [Work] = []
    /// A family type's queries: the remainder first, then one per prefix.
    private let splits: [[CloudKitFilter]]

    init(types names: [String], splittable: (String) -> Bool, splits: [[CloudKitFilter]]) {
        self.splits = splits
        for name in names {
            let type = types.count
            if splittable(name), let remainder = splits.first {
                types.append(TypeRead(name: name, state: .deciding(probe: nil, remainder: nil)))
                work.append(.probe(type: type))
                work.append(.page(stream: open(type, filters: remainder), marker: nil))
            } else {
                types.append(TypeRead(name: name, state: .reading))
                work.append(.page(stream: open(type, filters: nil), marker: nil))
            }
        }
    }

    /// The next request to send, if any.
    mutating func nextWork() -> Work? {
        while !work.isEmpty {
            let next = work.removeFirst()
            if case .page(let stream, _) = next, !streams[stream].live { continue }
            return next
        }
        return nil
    }

    /// The query a piece of work sends (a probe's type is all that matters of it).
    func query(of work: Work) -> CloudKitQuery {
        switch work {
        case .probe(let type): return CloudKitQuery(recordType: types[type].name)
        case .page(let stream, _):
            return CloudKitQuery(recordType: types[streams[stream].type].name, filterBy: streams[stream].filters)
        }
    }

    /// Takes one answer in; throws the failure that ends the read.
    mutating func take(_ answer: Answer, absent: (CloudKitError) -> Bool) throws(CloudKitError) -> Handed {
        var handed = Handed()
        switch answer {
        case .probed(let type, let result):
            guard case .deciding(_, let remainder) = types[type].state else { return handed }
            types[type].state = .deciding(probe: result, remainder: remainder)
            try decide(type, absent: absent, into: &handed)
        case .page(let stream, let result):
            guard streams[stream].live else { return handed }
            let type = streams[stream].type
            switch types[type].state {
            case .deciding(let probe, _):
                types[type].state = .deciding(probe: probe, remainder: result)
                try decide(type, absent: absent, into: &handed)
            case .skipped:
                return handed
            case .reading:
                switch result {
                case .success(let page): try accept(page, of: stream, into: &handed)
                case .failure(let error) where !streams[stream].answered && types[type].open == 1 && absent(error):
                    skip(type, into: &handed)
                case .failure(let error): throw error
                }
            }
        }
        return handed
    }

    /// A family type: split once the probe and the remainder's first page both answered; read
    /// with one query when the code index is missing or the server refuses the remainder's filter.
    private mutating func decide(_ type: Int, absent: (CloudKitError) -> Bool, into handed: inout Handed) throws(CloudKitError) {
        guard case .deciding(let probe, let remainder) = types[type].state else { return }
        if case .failure(let error)? = probe {
            if absent(error) { return skip(type, into: &handed) }
            guard error.isMissingIndex else { throw error }
            return readWhole(type)
        }
        if case .failure(let error)? = remainder {
            if absent(error) { return skip(type, into: &handed) }
            guard error.isMissingIndex || error.isBadRequest else { throw error }
            if probe != nil { readWhole(type) }
            return
        }
        guard probe != nil, case .success(let first)? = remainder,
              let stream = streams.firstIndex(where: { $0.type == type && $0.live }) else { return }
        types[type].state = .reading
        for filters in splits.dropFirst() { work.append(.page(stream: open(type, filters: filters), marker: nil)) }
        try accept(first, of: stream, into: &handed)
    }

    private mutating func accept(_ page: CloudKitQueryPage, of stream: Int, into handed: inout Handed) throws(CloudKitError) {
        streams[stream].answered = true
        handed.pages.append(page.records)
        if let marker = try streams[stream].pages.next(after: page.continuationMarker) {
            work.insert(.page(stream: stream, marker: marker), at: 0)
        } else {
            close(stream, into: &handed)
        }
    }

    private mutating func open(_ type: Int, filters: [CloudKitFilter]?) -> Int {
        streams.append(Stream(type: type, filters: filters, pages: ContinuationGuard(recordType: types[type].name)))
        types[type].open += 1
        return streams.count - 1
    }

    private mutating func close(_ stream: Int, into handed: inout Handed) {
        streams[stream].live = false
        let type = streams[stream].type
        types[type].open -= 1
        if types[type].open == 0, case .reading = types[type].state { handed.finished.append(types[type].name) }
    }

    /// One unfiltered query for the type; the split's queries are dropped (none was handed over).
    private mutating func readWhole(_ type: Int) {
        for index in streams.indices where streams[index].type == type && streams[index].live {
            streams[index].live = false
            types[type].open -= 1
        }
        types[type].state = .reading
        work.append(.page(stream: open(type, filters: nil), marker: nil))
    }

    private mutating func skip(_ type: Int, into handed: inout Handed) {
        for index in streams.indices where streams[index].type == type { streams[index].live = false }
        types[type].open = 0
        types[type].state = .skipped
        handed.finished.append(types[type].name)
    }
}

extension CloudKitError {
    /// BAD_REQUEST without a schema problem named: a filter the server does not take.
    var isBadRequest: Bool {
        if case .service(.badRequest, _, _, _) = self { return true }
        return false
    }
}
