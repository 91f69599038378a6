length = int(raw_input())  # output
c = list(map(int,raw_input().split()))[:length]
print ",".join(map(str,c[::-1]))
