import TribeBoardCloudKit

/// Where a whole-type read (`WholeTypeReader`) stands: the queries of each type, the page each
/// has reached, and how each family type is read (split or not). It sends nothing: the reader
/// performs its work and hands it the answers, in whatever order they come.
struct ReadPlan: Sendable {
    enum Work: Sendable, Equatable {
        /// A page of one query (nil marker: its first).
        case page(stream: Int, marker: String?)
    }

    enum Answer: Sendable {
        case page(stream: Int, Result<CloudKitQueryPage, CloudKitError>)
    }

    /// What an answer lets the reader hand over: pages of records, and the types now read whole.
    struct Handed {
        /// A page, and the split whose query read it (nil: an unsplit query).
        struct Page {
            var split: Int?
            var records: [CloudKitRecordResult]
        }

        var pages: [Page] = []
        var finished: [String] = []
    }

    private enum TypeState {
        /// A family type waiting for the first split's first page (which filters on the code: its
        /// answer says whether the container can split the type) and the first page of one
        /// unfiltered query (the whole type when it fits in a page; the fallback otherwise).
        case deciding(Decision)
        case reading
        case skipped
    }

    private struct Decision {
        var firstSplit: (stream: Int, answer: Result<CloudKitQueryPage, CloudKitError>?)
        var whole: (stream: Int, answer: Result<CloudKitQueryPage, CloudKitError>?)
    }

    private struct TypeRead {
        let name: String
        var state: TypeState
        /// Queries of the type not read to their end.
        var open = 0
    }

    private struct Stream {
        let type: Int
        /// Which of `splits` it reads (nil: the type unfiltered).
        let split: Int?
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
    /// A family type's queries, each one split of it; the first also answers whether it can be
    /// split.
    private let splits: [[CloudKitFilter]]

    init(types names: [String], splittable: (String) -> Bool, splits: [[CloudKitFilter]]) {
        self.splits = splits
        for name in names {
            let type = types.count
            if splittable(name), !splits.isEmpty {
                types.append(TypeRead(name: name, state: .reading))
                let decision = Decision(
                    firstSplit: (open(type, split: 0), nil), whole: (open(type, split: nil), nil))
                types[type].state = .deciding(decision)
                work += [
                    .page(stream: decision.firstSplit.stream, marker: nil),
                    .page(stream: decision.whole.stream, marker: nil)
                ]
            } else {
                types.append(TypeRead(name: name, state: .reading))
                work.append(.page(stream: open(type, split: nil), marker: nil))
            }
        }
    }

    /// The next request to send, if any.
    mutating func nextWork() -> Work? {
        while !work.isEmpty {
            let next = work.removeFirst()
            switch next {
            case .page(let stream, _) where !streams[stream].live: continue
            default: return next
            }
        }
        return nil
    }

    /// The query a piece of work sends.
    func query(of work: Work) -> CloudKitQuery {
        switch work {
        case .page(let stream, _):
            return CloudKitQuery(
                recordType: types[streams[stream].type].name,
                filterBy: streams[stream].split.map { splits[$0] })
        }
    }

    /// Takes one answer in; throws the failure that ends the read.
    mutating func take(_ answer: Answer, absent: (CloudKitError) -> Bool) throws(CloudKitError)
        -> Handed
    {
        var handed = Handed()
        switch answer {
        case .page(let stream, let result):
            guard streams[stream].live else { return handed }
            let type = streams[stream].type
            switch types[type].state {
            case .deciding(var decision):
                if stream == decision.whole.stream {
                    decision.whole.answer = result
                } else {
                    decision.firstSplit.answer = result
                }
                try decide(type, decision, absent: absent, into: &handed)
            case .skipped:
                return handed
            case .reading:
                switch result {
                case .success(let page): try accept(page, of: stream, into: &handed)
                case .failure(let error)
                where !streams[stream].answered && types[type].open == 1 && absent(error):
                    skip(type, into: &handed)
                case .failure(let error): throw error
                }
            }
        }
        return handed
    }

    /// A family type: one page when it fits in one (the unfiltered query's first page has no
    /// marker); split once the first split's first page answered (proof that the container has
    /// the code's index and knows the comparator); the unfiltered query read on when the code
    /// index is missing or the server refuses the split's filter.
    /// The unfiltered query must be answered whatever is chosen: a type the container cannot read
    /// whole (`___recordID` not QUERYABLE, no index at all) stops the read with Apple's refusal of
    /// it, as a one-query read always did, rather than with the split's schema or none at all.
    /// Nothing is handed over before the choice, so nothing is read twice.
    private mutating func decide(_ type: Int, _ decision: Decision, absent: (CloudKitError) -> Bool,
                                 into handed: inout Handed) throws(CloudKitError) {
        types[type].state = .deciding(decision)
        let failures = [decision.firstSplit.answer?.failure, decision.whole.answer?.failure]
            .compactMap { $0 }
        if failures.contains(where: absent) { return skip(type, into: &handed) }
        if case .success(let page)? = decision.whole.answer, page.continuationMarker == nil {
            drop(type, keeping: decision.whole.stream)
            return try accept(page, of: decision.whole.stream, into: &handed)
        }
        if let failure = decision.whole.answer?.failure { throw failure }
        switch decision.firstSplit.answer {
        case .failure(let error)?:
            guard error.isMissingIndex || error.isBadRequest else { throw error }
        case .success(let first)?:
            guard decision.whole.answer != nil else { return }
            drop(type, keeping: decision.firstSplit.stream)
            for split in splits.indices.dropFirst() {
                work.append(.page(stream: open(type, split: split), marker: nil))
            }
            return try accept(first, of: decision.firstSplit.stream, into: &handed)
        default:
            return
        }
        // The split is refused: the unfiltered query goes on from its first page.
        guard case .success(let first)? = decision.whole.answer else { return }
        drop(type, keeping: decision.whole.stream)
        try accept(first, of: decision.whole.stream, into: &handed)
    }

    /// The type is read by `stream` (and, for a split, the prefixes opened next): the decision's
    /// other queries are dropped.
    private mutating func drop(_ type: Int, keeping stream: Int) {
        for index in streams.indices
        where streams[index].type == type && streams[index].live && index != stream {
            streams[index].live = false
            types[type].open -= 1
        }
        types[type].state = .reading
    }

    private mutating func accept(
        _ page: CloudKitQueryPage, of stream: Int, into handed: inout Handed
    ) throws(CloudKitError) {
        streams[stream].answered = true
        handed.pages.append(Handed.Page(split: streams[stream].split, records: page.records))
        if let marker = try streams[stream].pages.next(after: page.continuationMarker) {
            work.insert(.page(stream: stream, marker: marker), at: 0)
        } else {
            close(stream, into: &handed)
        }
    }

    private mutating func open(_ type: Int, split: Int?) -> Int {
        streams.append(
            Stream(type: type, split: split, pages: ContinuationGuard(recordType: types[type].name))
        )
        types[type].open += 1
        return streams.count - 1
    }

    private mutating func close(_ stream: Int, into handed: inout Handed) {
        streams[stream].live = false
        let type = streams[stream].type
        types[type].open -= 1
        if types[type].open == 0, case .reading = types[type].state {
            handed.finished.append(types[type].name)
        }
    }

    private mutating func skip(_ type: Int, into handed: inout Handed) {
        for index in streams.indices where streams[index].type == type {
            streams[index].live = false
        }
        types[type].open = 0
        types[type].state = .skipped
        handed.finished.append(types[type].name)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension CloudKitError {
    /// BAD_REQUEST without a schema problem named: a filter the server does not take.
    var isBadRequest: Bool {
        if case .service(.badRequest, _, _, _) = self { return true }
        return false
    }
}
