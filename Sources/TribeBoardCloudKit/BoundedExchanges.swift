import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session's delegate: each answer is read into memory up to `limit` bytes, and an answer
/// that goes past it (a server streaming without end) is cut there and reported as
/// `.responseTooLarge`, instead of growing the process until the system kills it. Redirects are
/// not followed: the signed headers would go with them, so the 3xx itself is handed back.
final class BoundedExchanges: NSObject, URLSessionDataDelegate, Sendable {
    typealias Finish = @Sendable (Result<(Data, URLResponse), any Error>) -> Void

    private struct Exchange {
        var data = Data()
        var response: URLResponse?
        let finish: Finish
    }

    let limit: Int
    private let exchanges = Mutex<[Int: Exchange]>([:])

    init(limit: Int) { self.limit = limit }

    /// Starts `task`; `finish` is called once, with the whole answer or why there is none.
    func start(_ task: URLSessionDataTask, finish: @escaping Finish) {
        exchanges.withLock { $0[task.taskIdentifier] = Exchange(finish: finish) }
        task.resume()
    }

    private func end(
        _ task: URLSessionTask, _ result: (Exchange) -> Result<(Data, URLResponse), any Error>
    ) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) })
        else { return }
        exchange.finish(result(exchange))
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A declared length over the bound is refused before a byte of the body is read.
        if response.expectedContentLength > Int64(limit) {
            end(dataTask) { _ in .failure(CloudKitError.responseTooLarge(limit: limit)) }
            completionHandler(.cancel)
            return
        }
        exchanges.withLock { $0[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = exchanges.withLock { all -> Bool in
            guard let read = all[dataTask.taskIdentifier]?.data.count else { return false }
            guard read + data.count <= limit else { return true }
            // In place: a copy of the exchange taken out and put back would copy its whole answer
            // for every chunk that arrives.
            all[dataTask.taskIdentifier]?.data.append(data)
            return false
        }
        if over {
            end(dataTask) { _ in .failure(CloudKitError.responseTooLarge(limit: limit)) }
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
        end(task) { exchange in
            if let error { return .failure(error) }
            guard let response = exchange.response ?? task.response else {
                return .failure(URLError(.badServerResponse))
            }
            return .success((exchange.data, response))
        }
    }

    /// Ends an exchange from outside (a deadline, a cancellation); the task is left to the caller.
    func abandon(_ task: URLSessionTask, with error: any Error) {
        end(task) { _ in .failure(error) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
