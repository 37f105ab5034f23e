/// A readout that follows another widget of its scene, by widget id (ids, not indices: scenes
/// are put together from parts, the demo from every widget's own, and ids survive that). The
/// scene pushes the source's `readoutValue` into the readout; how it reads is the readout's
/// `NumberFormat`, the one the source reports with.
public struct ReadoutBinding: Sendable, Equatable {
    /// A `ReadoutSource`.
    public var source: String
    /// A `Readout`.
    public var readout: String

    public init(source: String, readout: String) {
        self.source = source
        self.readout = readout
    }
}

/// A binding resolved in its scene.
struct ReadoutLink {
    let source: any ReadoutSource
    let readout: any Readout
    /// Where the source and the readout stand in the scene's widgets.
    let sourceIndex: Int, readoutIndex: Int

    /// Resolves `binding` in `widgets`; a binding that names no such widget, or a widget of the
    /// wrong kind, is a mistake in the scene's code.
    init(_ binding: ReadoutBinding, in widgets: [Widget]) {
        guard let s = widgets.firstIndex(where: { $0.id == binding.source }),
            let source = widgets[s] as? any ReadoutSource
        else { preconditionFailure("binding: no readout source \"\(binding.source)\" in the scene") }
        guard let r = widgets.firstIndex(where: { $0.id == binding.readout }),
            let readout = widgets[r] as? any Readout
        else { preconditionFailure("binding: no readout \"\(binding.readout)\" in the scene") }
        self.source = source
        self.readout = readout
        sourceIndex = s
        readoutIndex = r
    }

    func push() { readout.follow(source.readoutValue) }
    func settle() { readout.settle(on: source.readoutValue) }
}
