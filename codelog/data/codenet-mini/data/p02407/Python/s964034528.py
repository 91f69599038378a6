raw_input()
a = list(map(int,raw_input().split()))
n = len(a)
for x in reversed(a):
    # answer
    print x,
print