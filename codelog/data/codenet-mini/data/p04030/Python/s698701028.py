def main():
    mx = raw_input()
    chars = []
    for c in mx:

        if c=="B":  # O(N)
            if chars:
                chars.pop()
        else:
            chars.append(c)
    print "".join(chars)  # print answer



main()
