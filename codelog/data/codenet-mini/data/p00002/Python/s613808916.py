#!/usr/bin/env python
def work():
    while True:
        try:
            q, tot = map(int, raw_input().split())
        except EOFError:
            break
        print len(str(q + tot)) + 1


work()
