n = int(raw_input())
word = list(map(int, raw_input().split()))[:n]  # solve
print " ".join(map(str, word))
