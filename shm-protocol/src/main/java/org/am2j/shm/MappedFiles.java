package org.am2j.shm;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The process's mappings of other endpoints' files (queue blocks, segments, doorbells): one mapping per file per
 * process, shared by every endpoint that needs it and forgotten when the last one lets go. A forgotten mapping is
 * unmapped by the garbage collector, never explicitly: a thread still sending through a route of a closing endpoint
 * (or at process exit) must meet a closed endpoint, not unmapped memory.
 */
final class MappedFiles
{
    private final Map<Path, MappedRegion> regions = new HashMap<>();

    /**
     * @param path of an existing file.
     * @return its mapping, shared.
     */
    synchronized MappedRegion acquire(final Path path)
    {
        final MappedRegion existing = regions.get(path);
        // A /proc/<pid>/fd/<fd> address is reused when its owner closes the descriptor and opens another file:
        // share a mapping only while the address still names the file mapped.
        if (null != existing && (null == existing.fileKey || existing.fileKey.equals(MappedRegion.fileKey(path))))
        {
            existing.references++;
            return existing;
        }
        final MappedRegion region = MappedRegion.open(path);
        regions.put(path, region);
        return region;
    }

    /**
     * @param region a mapping from {@link #acquire(Path)}, or null.
     */
    synchronized void release(final MappedRegion region)
    {
        if (null != region && --region.references == 0)
        {
            regions.remove(region.path, region);
        }
    }

    synchronized void releaseAll()
    {
        regions.clear();
    }
}
