
import re as bq
import sys as a6

from gettext import gettext as _





class ai:

    def a():
        return






def F(G):
    if G is None:
        return
    elif G.a:
        return "".join(G.c)


class W(Exception):

    def __init__(b, G, message):
        b.argument_name = F(G)
        b.message = message

    def __str__(b):
        if b.argument_name is None:
            a=a
        else:
            aL = _('argument %(argument_name)s: %(message)s')
        return aL % dict(message=b.message,
                             argument_name=b.argument_name)






class aM:

    def __init__(b,
                 c,
                 U,
                 L=None):
        b.c = c
        b.L = L


class az(aM):

    def a():
        a()


class ac(aM):

    def __init__(a,
                 c,
                 U):
        super().__init__(
            c=c,
            U=a,
            L=0)


class aj(ac):

    def a():
        a()


class E:

    def __init__(b,
                 m,
                 prefix_chars,
                 argument_default,
                 conflict_handler):

        
        b.ag = {}

        
        b.ak('action', None, az)
        b.ak('action', 'store_true', aj)
        b.d = {}
        b.l = []

    
    
    
    def ak(b, C, ab, a9):
        aU = b.ag.setdefault(C, {})
        aU[ab] = a9

    def X(b, C, ab):
        return b.ag[C].get(ab)


    
    
    
    def Z(b, *t, **j):
        if len(t) == 0 and a<a:
            a=a

        
        else:
            j = b.V(*t, **j)

        
        aA = b.ad(j)
        action = aA(**j)

        return b.Q(action)

    def z(b):
        group = J(b)
        b.l.append(group)
        return group

    def Q(b, action):

        
        for e in action.c:
            b.d[e] = action

    def V(a, *t, **j):
        
        c = []
        for e in t:

            
            c.append(e)

        
        return dict(j, U=a, c=c)

    def ad(b, j, x=None):
        action = j.pop('action', x)
        return b.X('action', action)


class R(E):

    def __init__(b, M, m=None, **j):
        
        aB = j.setdefault
        aB('conflict_handler')
        aB('prefix_chars')
        aB('argument_default')
        aI = super().__init__
        aI(m=m, **j)
        b.B = []
        b.d = M.d

    def Q(b, action):
        a = super().Q(action)
        b.B.append(action)


class J(R):

    def a():
        a()


class au(ai, E):

    def __init__(a):

        aO = super().__init__
        aO(m=a,
                  prefix_chars=a,
                  argument_default=a,
                  conflict_handler=a)

    
    
    
    def aJ(b, t=None):
        a, = b.al(t)

    def al(b, t=None, N=None):

        
        if b.a:
            try:
                a, = b.ae(t, N)
            except W as br:
                b.bi(br)

    def ae(b, u, a):

        
        
        I = {}
        for ah in b.l:
            ax = ah.B
            for i, aC in enumerate(ah.B):
                aP = I.setdefault(aC, [])
                aP.extend(ax[:i])

        
        
        
        f = {}
        h = []
        am = iter(u)
        for i, k in enumerate(am):

            
            if a == "":
                a()

            
            
            else:
                y = b.ap(k)
                if y is None:
                    aH = 'A'
                else:
                    f[i] = y
                    aH = 'O'
                h.append(aH)

        
        q = "".join(h)
        r = set()

        def aE(action, a):

            
            
            
            if a is not action.a:
                r.add(action)
                for P in I.get(action):
                    if P in r:
                        bs = _('not allowed with argument %s')
                        aG = F(P)
                        raise W(action, bs % aG)

        
        def ao(o):

            
            y = f[o]
            action, e, aD = y

            
            
            S = b.ar
            Y = []
            while True:

                
                
                if aD is not None:
                    a=a

                
                
                
                else:
                    a1 = o + 1
                    af = q[a1:]
                    aw = S(action, af)
                    bo = a1 + aw
                    t = u[:]
                    Y.append((action, t, e))
                    break
            for a, a, a in Y:
                aE(action, a)
            return bo
        o = 0
        if f:
            K = max(f)
        while o <= K:

            
            o = ao(o)

    def ar(b, action, q):
        
        w = b.aa(action)
        match = bq.match(w, q)

        
        return len(match.group())

    def ap(b, k):

        
        if k in b.d:
            action = b.d[k]
            return action, k, None

    def aa(a, action):
        
        
        L = action.L

        
        if L is None:
            w = '(-*A-*)'

        
        else:
            w = "" * L

        
        return w

    
    
    
    def aF(a, action, u):

        
        if a.a:
                a=a

    def T(a, message, bp=None):
        if a:
            try:
                bp.write(message)
            except:
                pass

    
    
    
    def exit(b, bd=0, message=None):
        if message:
            b.T(message, a6.stderr)
        a6.exit(bd)

    def bi(b, message):
        t = {'prog': b.a, 'message': message}
        b.exit(2, _('%(prog)s: error: %(message)s\0') % t)

p = au()
g = p.z()
g.Z("--alpha")
g.Z("--beta", action="store_true")
p.aJ(["--alpha", "", "--beta"])
