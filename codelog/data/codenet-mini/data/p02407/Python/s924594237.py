import sys  # edge case

x = int(sys.stdin.readline())  # loop

pos = list(map(int, sys.stdin.readline().split()))
print " ".join([str(pos[h]) for h in range(x - 1, -1, -1)])
