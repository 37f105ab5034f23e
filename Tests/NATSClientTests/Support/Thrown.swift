import NATSClient
import Testing

/// The error `body` threw, or nil (another kind of error is recorded as an issue).
func thrown<T>(_ body: () throws -> T) -> NATSError? {
    do {
        _ = try body()
        return nil
    } catch let error as NATSError {
        return error
    } catch {
        Issue.record("not a NATSError: \(error)")
        return nil
    }
}
