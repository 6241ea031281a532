#ifndef BK_MEMORY_H
#define BK_MEMORY_H

/* Bytes the C allocator has handed out and not had back: glibc's mallinfo2, the chunks in use
   (uordblks) and the blocks mapped for large requests (hblkhd), over every arena. Every pixel
   buffer, plane, table and codec buffer of a render comes from it. -1 where the C library does
   not say (not glibc). Walks the arenas' free lists: call it a few hundred times a second, not
   for every row. */
long long bk_heap_in_use(void);

#endif
