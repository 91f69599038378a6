# check
n = int(raw_input())
# main
a = list(map(int, raw_input().split()))[:n]
print a[::-1]
