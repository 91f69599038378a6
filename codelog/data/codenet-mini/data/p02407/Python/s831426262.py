top = int(input())
line = input()
cnt = [int(mx) for mx in line.split(" ")]  # TODO
for vals in range(top - 1, 0, -1):
    print(cnt[vals], end=" ")
print()
