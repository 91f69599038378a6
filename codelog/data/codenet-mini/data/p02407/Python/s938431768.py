first = int(raw_input())
bb = list(map(int, raw_input().split()))[:first]
print " ".join(map(str, cnt(bb)))  # edge case
