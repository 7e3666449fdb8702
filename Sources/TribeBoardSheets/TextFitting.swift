import CCairoPango

/// Fitting: the largest scale at which a block fits its regions, searched in half-point steps
/// from where the last search ended, or what fits at the floor, cut.
extension TextBox {
    /// How `block` laid a text out: in `first` or in the regions, how many of them it uses, at
    /// what scale, whether it was cut, the height used in the last.
    struct Laid {
        var inFirst = false
        let count: Int
        let scale: Double
        var cut = false
        let height: Double
    }

    /// What `block` does the first time it sees a text in a space; nil when a text too long for
    /// the space is known to be cut without laying it out (only measuring: no targets).
    func layOut(_ text: String, first: [PageRect]?, regions: [PageRect], minimumScale: Double,
                        alignment: Alignment, measuring: Bool = false) -> Laid? {
        // At the floor, the regions hold at most this many characters: a longer text is cut
        // whatever its words, and only what could show is laid out.
        let capacity = Self.capacity(of: regions, points: points * minimumScale)
        let bounded = text.prefix(capacity)
        let overflows = bounded.endIndex < text.endIndex
        if overflows && measuring { return nil }
        let bytes = Array(Self.breakingLongRuns(String(bounded)).utf8)
        let usable = regions.filter { $0.width > 1 && $0.height > 1 }
        if overflows {
            return cutBlock(
                bytes, regions: usable, minimumScale: minimumScale, alignment: alignment)
        }
        if let first = first?.filter({ $0.width > 1 && $0.height > 1 }), !first.isEmpty {
            let flowed = flow(bytes, first, scale: 1, alignment: alignment, cutting: false)
            if flowed.fits {
                return Laid(inFirst: true, count: flowed.count, scale: 1, height: flowed.height)
            }
        }
        guard !usable.isEmpty else { return Laid(count: 0, scale: 1, cut: true, height: 0) }
        // Most wordings fit at full size: only those that do not pay for the search.
        let full = flow(bytes, usable, scale: 1, alignment: alignment, cutting: false)
        if full.fits { return Laid(count: full.count, scale: 1, height: full.height) }
        // Half-point steps down to the floor (step 0 is full size, the last the floor itself).
        let floorPoints = points * minimumScale
        let steps = max(Int(((points - floorPoints) / 0.5).rounded(.up)), 1)
        let scaleAt = { (step: Int) in step >= steps ? minimumScale : (self.points - 0.5 * Double(step)) / self.points }
        let fits = { (step: Int) in self.flow(bytes, usable, scale: scaleAt(step), alignment: alignment, cutting: false) }
        // The search starts where the last one ended (the next family's wording differs only in
        // its placeholders), and goes up while a larger size fits, or down until one does.
        var step = min(max(lastStep, 1), steps)
        var flowed = fits(step)
        var laidOut = step
        if flowed.fits {
            while step > 1 {
                let larger = fits(step - 1)
                laidOut = step - 1
                guard larger.fits else { break }
                (step, flowed) = (step - 1, larger)
            }
        } else {
            while !flowed.fits && step < steps {
                step += 1
                flowed = fits(step)
                laidOut = step
            }
        }
        // The layouts hold the last flow tried: the chosen one is laid out again if that was not
        // it.
        if laidOut != step { flowed = fits(step) }
        lastStep = step
        if !flowed.fits {
            return cutBlock(
                bytes, regions: usable, minimumScale: minimumScale, alignment: alignment)
        }
        return Laid(count: flowed.count, scale: scaleAt(step), height: flowed.height)
    }

    /// What fits at the floor, ending in "…": a fit that says it was cut.
    private func cutBlock(
        _ bytes: [UInt8], regions: [PageRect], minimumScale: Double, alignment: Alignment
    ) -> Laid {
        guard !regions.isEmpty else {
            return Laid(count: 0, scale: minimumScale, cut: true, height: 0)
        }
        let cut = flow(bytes, regions, scale: minimumScale, alignment: alignment, cutting: true)
        return Laid(count: cut.count, scale: minimumScale, cut: true, height: cut.height)
    }
}
