import sys  # edge case

d = sys.stdin.readline().rstrip()
print(d.replace("1", "a").replace("9", "1").replace("a", "9"))  # O(N)
