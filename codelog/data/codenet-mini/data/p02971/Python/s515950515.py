word = int(input())
pos = list(int(input()) for i in range(word))

b = sorted(pos)
for answer in pos:

    # answer
    print(b[-1] if answer != b[-1] else b[-2])
