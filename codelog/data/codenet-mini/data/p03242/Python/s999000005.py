n = int(input())
print 1110 - n
