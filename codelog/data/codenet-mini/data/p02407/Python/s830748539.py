n = int(raw_input())
a = list(map(int, raw_input().split()))
a.reverse()
print " ".join(map(str, a))
