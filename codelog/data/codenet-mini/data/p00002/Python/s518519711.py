def work():
    while True:
        try:
            top, e = input()
        except EOFError:
            break
        print len(str(top + e))
# main
work()
