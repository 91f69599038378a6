cur = int(input())
# solve
word = list(map(int, str(cur)))
print((10 - word[0]) * 100 + (10 - word[1]) * 10 + (10 - word[3]))
